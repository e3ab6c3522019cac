import { CONTROL_CHARACTERS_ERROR, hasControlCharacters } from "../../../shared/api/text.js";
import { resolveExpression } from "../../../shared/segments/schema.js";
import type { SegmentNode } from "../../../shared/segments/tree.js";
import { apiError, segmentApiError } from "../../errors.js";

/**
 * An expression from a request (text, or a JSON tree not yet checked) as its tree; a refusal is
 * the language's coded 400 (`segment_syntax`, a limit…) pointing at `field`, with the position
 * in the text and a message naming it.
 */
export function segmentTreeOf(input: string | Readonly<Record<string, unknown>>, field: string): SegmentNode {
  if (typeof input === "string" && hasControlCharacters(input)) throw apiError(CONTROL_CHARACTERS_ERROR, field);
  const resolved = resolveExpression(input as string | SegmentNode);
  if (!resolved.ok) throw segmentApiError(resolved.error, field);
  return resolved.tree;
}
