import { z } from "zod";
import { SEGMENT_LIMITS } from "../segments/tree.js";

/**
 * An expression as a request carries it: text (`plano = premium e não tem optout`) or its JSON
 * tree. Checked by the segment language (src/shared/segments) in the handler, so a refusal names
 * its limit and its position. Shared by saved segments and a send's `segment` audience.
 */
export const segmentExpressionInputSchema = z.union([
  // Control characters are refused with the field's name by the handler (segmentTreeOf): a
  // refinement here would fail the whole union, as an unnamed `validation_failed`.
  z.string().max(SEGMENT_LIMITS.textLength, { error: "segment_too_long" }),
  z.record(z.string(), z.unknown()),
]);

/** Which tags the expression's tag conditions read: `trusted` (default), `visitor` or `all`. */
export { segmentTagKindsSchema } from "../segments/schema.js";
