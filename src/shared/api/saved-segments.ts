import { z } from "zod";
import { NOTIFICATION_STATUSES } from "./notifications.js";
import { multiLineText, text } from "./text.js";
import { segmentExpressionInputSchema, segmentTagKindsSchema } from "./segment-expression.js";

/**
 * Saved segments (*segmentos*): a named expression an operator reuses as a send's audience, with
 * its size measured every day and the sends that used it.
 */
export const SAVED_SEGMENT_LIMITS = {
  name: 80,
  description: 500,
  /** Saved segments on one server (`too_many_segments`). */
  count: 500,
  /** Days of sizes a segment's page shows. */
  historyDays: 90,
  /** Sends a segment's page lists. */
  sends: 20,
} as const;

export const segmentNameSchema = text({ error: "segment_name_invalid" })
  .trim()
  .min(1, { error: "segment_name_invalid" })
  .max(SAVED_SEGMENT_LIMITS.name, { error: "segment_name_invalid" });

const segmentDescriptionSchema = multiLineText({ error: "validation_failed" }).trim().max(SAVED_SEGMENT_LIMITS.description, { error: "validation_failed" }).nullable();

/** POST /segments (admin) → 201 `{ segment }`; 409 `segment_name_taken` / `too_many_segments`. */
export const createSegmentRequestSchema = z.strictObject({
  name: segmentNameSchema,
  description: segmentDescriptionSchema.optional(),
  expression: segmentExpressionInputSchema,
  tagKinds: segmentTagKindsSchema.default("trusted"),
});
export type CreateSegmentRequest = z.input<typeof createSegmentRequestSchema>;

/** PATCH /segments/:id (admin): what is given changes; the size is measured again. */
export const updateSegmentRequestSchema = z.strictObject({
  name: segmentNameSchema.optional(),
  description: segmentDescriptionSchema.optional(),
  expression: segmentExpressionInputSchema.optional(),
  tagKinds: segmentTagKindsSchema.optional(),
});
export type UpdateSegmentRequest = z.input<typeof updateSegmentRequestSchema>;

export const segmentSizeSchema = z.object({
  subscriptions: z.number().int(),
  people: z.number().int(),
  /** ISO 8601, UTC. */
  measuredAt: z.string(),
});

export const savedSegmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** The canonical text of the expression. */
  expression: z.string(),
  /** The expression as its JSON tree (src/shared/segments/tree.ts). */
  tree: z.record(z.string(), z.unknown()),
  tagKinds: segmentTagKindsSchema,
  /** The latest measure; null until the first. */
  size: segmentSizeSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedSegment = z.infer<typeof savedSegmentSchema>;

/** GET /segments/:id: the segment, its daily sizes (last 90 days, oldest first) and its latest sends. */
export const savedSegmentDetailSchema = savedSegmentSchema.extend({
  history: z.array(z.object({ day: z.string(), subscriptions: z.number().int(), people: z.number().int() })),
  sends: z.array(z.object({ id: z.string(), title: z.string(), status: z.enum(NOTIFICATION_STATUSES), createdAt: z.string(), queued: z.number().int() })),
});
export type SavedSegmentDetail = z.infer<typeof savedSegmentDetailSchema>;

/** GET /segments (signed in). */
export const savedSegmentsResponseSchema = z.object({ segments: z.array(savedSegmentSchema) });
export type SavedSegmentsResponse = z.infer<typeof savedSegmentsResponseSchema>;

/** POST, PATCH /segments(/:id). */
export const savedSegmentResponseSchema = z.object({ segment: savedSegmentSchema });
export type SavedSegmentResponse = z.infer<typeof savedSegmentResponseSchema>;

/** GET /segments/:id. */
export const savedSegmentDetailResponseSchema = z.object({ segment: savedSegmentDetailSchema });
export type SavedSegmentDetailResponse = z.infer<typeof savedSegmentDetailResponseSchema>;
