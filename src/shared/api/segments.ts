import { z } from "zod";
import { segmentExpressionSchema, segmentTagKindsSchema } from "../segments/schema.js";
import type { SegmentNode } from "../segments/tree.js";
import { userIdSchema } from "./user-id.js";

/**
 * Segments over the API: an expression (the text form or its JSON tree, src/shared/segments)
 * counted now, or explained for one person or subscription.
 */

/** A segment's tree as answered: the validated, normalised tree (its shape is segmentTreeSchema's). */
const answeredTreeSchema = z.custom<SegmentNode>(() => true).describe("A expressão como árvore JSON (o mesmo formato aceito em expression).");

/** POST /segments/count. */
export const segmentCountRequestSchema = z.strictObject({
  expression: segmentExpressionSchema,
  tagKinds: segmentTagKindsSchema.default("trusted"),
});
export type SegmentCountRequest = z.input<typeof segmentCountRequestSchema>;

const answeredExpression = {
  /** The canonical text (formatSegment): what the Painel shows and a send records. */
  expression: z.string(),
  tree: answeredTreeSchema,
  tagKinds: segmentTagKindsSchema,
  /** Channel slugs the expression names that are no channel: their conditions hold for no one. */
  unknownChannels: z.array(z.string()),
};

export const segmentCountResponseSchema = z.object({
  subscriptions: z.number().int(),
  people: z.number().int(),
  ...answeredExpression,
});
export type SegmentCountResponse = z.infer<typeof segmentCountResponseSchema>;

/** POST /segments/explain (admin): an expression or a saved segment, for a person or a subscription. */
export const segmentExplainRequestSchema = z
  .strictObject({
    expression: segmentExpressionSchema.optional(),
    segment: z.string().regex(/^\d{1,15}$/, { error: "segment_not_found" }).optional(),
    tagKinds: segmentTagKindsSchema.optional(),
    userId: userIdSchema.optional(),
    subscriptionId: z.string().regex(/^\d{1,15}$/, { error: "subscriber_not_found" }).optional(),
  })
  .refine((body) => (body.expression === undefined) !== (body.segment === undefined), { error: "validation_failed", path: ["expression"] })
  .refine((body) => (body.userId === undefined) !== (body.subscriptionId === undefined), { error: "validation_failed", path: ["userId"] });
export type SegmentExplainRequest = z.input<typeof segmentExplainRequestSchema>;

/** One node of the expression with whether it held: `text` is the node's canonical text. */
export interface ExplainNode {
  readonly text: string;
  readonly held: boolean;
  readonly children?: readonly ExplainNode[];
}

// Named (`id`): a recursive schema needs a place in the OpenAPI document's components to refer to.
export const explainNodeSchema: z.ZodType<ExplainNode> = z
  .lazy(() =>
    z.object({
      text: z.string(),
      held: z.boolean(),
      children: z.array(explainNodeSchema).optional(),
    }),
  )
  .meta({ id: "ExplainNode" });

export const segmentExplainResponseSchema = z.object({
  /** Whether any of the subscriptions is in the segment. */
  matches: z.boolean(),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      /** In the segment: the expression holds and the subscription is not flagged (a VAPID key mismatch keeps it out of every send). */
      matches: z.boolean(),
      /** Flagged for a VAPID key mismatch: no send reaches it, whatever the expression. */
      excluded: z.boolean(),
      tree: explainNodeSchema,
    }),
  ),
  ...answeredExpression,
});
export type SegmentExplainResponse = z.infer<typeof segmentExplainResponseSchema>;
