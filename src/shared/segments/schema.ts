import { z } from "zod";
import { multiLineText } from "../api/text.js";
import { isErrorCode } from "../errors.js";
import { checkTree, normalizeTree } from "./check.js";
import { parseSegment } from "./parse.js";
import { segmentError, type SegmentError, type SegmentResult } from "./segment-error.js";
import { SEGMENT_LIMITS, SEGMENT_TAG_KINDS, type SegmentNode } from "./tree.js";
import { TAG_KEY_PATTERN } from "../api/tag-rule.js";

/**
 * A segment's expression as JSON, for programs that never build strings: the same tree the text
 * form parses to (tree.ts), refused under the same limits and value rules (check.ts). Each
 * refusal's message is its error code, so a route's validation answers with it.
 */

const SYNTAX = { error: "segment_syntax" } as const;
const value = z.union([z.string(), z.number()], SYNTAX);
const tag = z.string().regex(TAG_KEY_PATTERN, SYNTAX).describe("A chave da etiqueta.");
const timeField = z.enum(["subscribedAt", "lastSeenAt", "lastClickedAt"], SYNTAX);

const conditionSchema = z.union(
  [
    z.strictObject({ tag, op: z.literal("exists") }).describe("`tem KEY`: a etiqueta existe, com ou sem valor."),
    z.strictObject({ tag, op: z.enum(["eq", "ne", "gt", "gte", "lt", "lte"]), value }).describe("Comparação com um valor: número, texto ou data ISO (AAAA-MM-DD). `ne`: a etiqueta existe com outro valor."),
    z.strictObject({ tag, op: z.literal("in"), values: z.array(value) }).describe("`KEY in (…)`: a etiqueta tem um dos valores."),
    z.strictObject({ field: z.enum(["channel", "site", "timeZone", "browser", "platform"]), op: z.literal("eq"), value }),
    z.strictObject({ field: z.enum(["channel", "site", "timeZone", "browser", "platform"]), op: z.literal("in"), values: z.array(value) }),
    z.strictObject({ field: timeField, op: z.enum(["before", "after"]), value: z.string() }),
    z.strictObject({ field: timeField, op: z.enum(["olderThan", "within"]), amount: z.number(), unit: z.enum(["hours", "days", "weeks"]) }),
    z.strictObject({ field: z.literal("identified") }),
  ],
  SYNTAX,
);

// Named (`id`): a recursive schema needs a place in the OpenAPI document's components to refer to.
const nodeSchema: z.ZodType<SegmentNode> = z
  .lazy(() =>
    z.union([conditionSchema, z.strictObject({ and: z.array(nodeSchema).min(1, SYNTAX) }), z.strictObject({ or: z.array(nodeSchema).min(1, SYNTAX) }), z.strictObject({ not: nodeSchema })], SYNTAX),
  )
  .meta({ id: "SegmentNode" });

/** The limits, counted before zod walks the tree: a hostile 10,000-level tree must not reach the recursion. */
function limitProblem(input: unknown): SegmentError | null {
  const stack: { node: unknown; depth: number }[] = [{ node: input, depth: 0 }];
  let conditions = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop() as { node: unknown; depth: number };
    if (typeof node !== "object" || node === null) continue;
    const children = "and" in node ? node.and : "or" in node ? node.or : "not" in node ? [node.not] : undefined;
    if (children === undefined) {
      conditions++;
      if (conditions > SEGMENT_LIMITS.conditions) return segmentError("segment_too_many_conditions", -1, "segments:limits.tooManyConditions", { max: SEGMENT_LIMITS.conditions });
      const values = "values" in node ? node.values : undefined;
      if (Array.isArray(values) && values.length > SEGMENT_LIMITS.listSize) return segmentError("segment_list_too_long", -1, "segments:limits.listTooLong", { max: SEGMENT_LIMITS.listSize });
      continue;
    }
    if (!Array.isArray(children)) continue;
    if (depth + 1 > SEGMENT_LIMITS.depth) return segmentError("segment_too_deep", -1, "segments:limits.tooDeep", { max: SEGMENT_LIMITS.depth });
    if (children.length > SEGMENT_LIMITS.conditions) return segmentError("segment_too_many_conditions", -1, "segments:limits.tooManyConditions", { max: SEGMENT_LIMITS.conditions });
    for (const child of children) stack.push({ node: child, depth: depth + 1 });
  }
  return null;
}

function issue(error: SegmentError) {
  return { code: "custom" as const, message: error.code, params: { reason: error.reason, ...error.params } };
}

export const segmentTreeSchema = z
  .preprocess((input, ctx) => {
    const error = limitProblem(input);
    if (error) ctx.issues.push({ ...issue(error), input });
    return input;
  }, nodeSchema)
  .superRefine((tree, ctx) => {
    const error = checkTree(tree);
    if (error) ctx.addIssue(issue(error));
  })
  .transform(normalizeTree)
  .describe("A expressão como árvore JSON: condições combinadas por `and`, `or` e `not`.");

export const segmentTagKindsSchema = z.enum(SEGMENT_TAG_KINDS).describe("Quais etiquetas as condições leem: `trusted` (da pessoa, padrão), `visitor` (do navegador) ou `all` (qualquer das duas).");

/**
 * The text form (parse.ts, read by the route so its refusal names a position; like every text
 * field, no control characters but line breaks and tabs) or the JSON tree. A refusal keeps the
 * code of the branch the input was meant for (`text_control_characters`, `segment_too_deep`…)
 * rather than the union's.
 */
export const segmentExpressionSchema = z.union([multiLineText().describe("A expressão em texto, como `plano = premium e não tem optout`."), segmentTreeSchema], {
  error: (issue) => {
    const branches = (issue as { errors?: { message: string }[][] }).errors ?? [];
    const first = branches[typeof issue.input === "string" ? 0 : 1]?.[0];
    return first !== undefined && isErrorCode(first.message) ? first.message : "segment_syntax";
  },
});

/** Text or tree → the validated, normalised tree, or why not. */
export function resolveExpression(input: string | SegmentNode): SegmentResult<SegmentNode> {
  if (typeof input === "string") return parseSegment(input);
  const result = segmentTreeSchema.safeParse(input);
  if (result.success) return { ok: true, tree: result.data };
  const first = result.error.issues[0];
  const code = first !== undefined && isErrorCode(first.message) && first.message.startsWith("segment_") ? (first.message as SegmentError["code"]) : "segment_syntax";
  const params = first?.code === "custom" ? (first.params as Record<string, string | number> | undefined) : undefined;
  const { reason, ...rest } = params ?? {};
  return { ok: false, error: segmentError(code, -1, typeof reason === "string" ? reason : "segments:syntax.tree", Object.keys(rest).length > 0 ? rest : undefined) };
}
