import { hasControlCharacters } from "../api/text.js";
import { segmentError, type SegmentError } from "./segment-error.js";
import { SEGMENT_LIMITS, type SegmentCondition, type SegmentNode, type SegmentValue } from "./tree.js";
import { TAG_KEY_PATTERN, TAG_LIMITS } from "../api/tag-rule.js";
import { decimalNumber, isoDateMs } from "./values.js";

/**
 * The rules every expression obeys, whether it came as text or as a JSON tree: the limits that keep
 * the database safe (SEGMENT_LIMITS) and what each condition's value may be. The parser reports
 * most of them as it reads (with the position of the offending token); this walk is what a JSON
 * tree goes through, and the parser's last check (nesting the text's parentheses do not show).
 */

/** `relative` amounts: `há mais de N dias`, N a whole number from 1 to this (about 270 years in days). */
export const SEGMENT_MAX_AMOUNT = 100_000;

export function isCombinator(node: SegmentNode): node is Extract<SegmentNode, { and: unknown } | { or: unknown } | { not: unknown }> {
  return "and" in node || "or" in node || "not" in node;
}

export function childrenOf(node: SegmentNode): readonly SegmentNode[] {
  if ("and" in node) return node.and;
  if ("or" in node) return node.or;
  if ("not" in node) return [node.not];
  return [];
}

/** Why a number may not stand in a condition: segments compare numbers the way tags store them (values.ts). */
export function numberProblem(value: number): string | null {
  return Number.isFinite(value) && decimalNumber(plainNumberText(value)) === value ? null : "segments:value.number";
}

/** A number as the text form writes it: a plain decimal, never an exponent. */
export function plainNumberText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent forms never pass numberProblem's round trip; any text will do for the message.
  return value.toFixed(20).replace(/\.?0+$/, "");
}

/** Why a text may not stand as a value: empty, longer than any tag value, or with control characters. */
export function textProblem(value: string): { reason: string; params?: Record<string, number> } | null {
  if (value.length === 0) return { reason: "segments:value.empty" };
  if (value.length > TAG_LIMITS.valueLength) return { reason: "segments:value.tooLong", params: { max: TAG_LIMITS.valueLength } };
  if (hasControlCharacters(value)) return { reason: "segments:value.controlCharacters" };
  return null;
}

function valueProblem(value: SegmentValue): { reason: string; params?: Record<string, number> } | null {
  if (typeof value === "number") {
    const reason = numberProblem(value);
    return reason === null ? null : { reason };
  }
  return textProblem(value);
}

/** What is wrong with one condition, or null. */
export function conditionProblem(condition: SegmentCondition): { code: SegmentError["code"]; reason: string; params?: Record<string, string | number> } | null {
  const invalid = (reason: string, params?: Record<string, string | number>) => ({ code: "segment_value_invalid" as const, reason, ...(params === undefined ? {} : { params }) });
  if ("tag" in condition) {
    if (!TAG_KEY_PATTERN.test(condition.tag)) return { code: "segment_syntax", reason: "segments:syntax.invalidKey", params: { key: condition.tag.slice(0, 80) } };
    if (condition.op === "exists") return null;
    if (condition.op === "in") {
      if (condition.values.length > SEGMENT_LIMITS.listSize) return { code: "segment_list_too_long", reason: "segments:limits.listTooLong", params: { max: SEGMENT_LIMITS.listSize } };
      if (condition.values.length === 0) return { code: "segment_syntax", reason: "segments:syntax.expectedValue" };
      for (const value of condition.values) {
        const problem = valueProblem(value);
        if (problem) return invalid(problem.reason, problem.params);
      }
      return null;
    }
    const problem = valueProblem(condition.value);
    if (problem) return invalid(problem.reason, problem.params);
    if (condition.op !== "eq" && condition.op !== "ne" && typeof condition.value === "string" && isoDateMs(condition.value) === null) {
      return invalid("segments:value.orderNeedsNumberOrDate", { value: condition.value.slice(0, 80) });
    }
    return null;
  }
  switch (condition.field) {
    case "identified":
      return null;
    case "subscribedAt":
    case "lastSeenAt":
    case "lastClickedAt":
      if (!("amount" in condition)) return isoDateMs(condition.value) === null ? invalid("segments:value.date", { value: condition.value.slice(0, 80) }) : null;
      return Number.isInteger(condition.amount) && condition.amount >= 1 && condition.amount <= SEGMENT_MAX_AMOUNT ? null : invalid("segments:value.amount", { max: SEGMENT_MAX_AMOUNT });
    default: {
      const values = condition.op === "eq" ? [condition.value] : condition.values;
      if (values.length > SEGMENT_LIMITS.listSize) return { code: "segment_list_too_long", reason: "segments:limits.listTooLong", params: { max: SEGMENT_LIMITS.listSize } };
      if (values.length === 0) return { code: "segment_syntax", reason: "segments:syntax.expectedValue" };
      for (const value of values) {
        if (condition.field === "site") {
          if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) return invalid("segments:value.site");
        } else {
          if (typeof value !== "string") return invalid("segments:value.text");
          const problem = textProblem(value);
          if (problem) return invalid(problem.reason, problem.params);
        }
      }
      return null;
    }
  }
}

/**
 * Checks a whole tree: nesting (and/or/not) at most SEGMENT_LIMITS.depth, at most
 * SEGMENT_LIMITS.conditions conditions, and each condition's values. `positionOf` gives a node's
 * place in the text it was read from (-1 for a JSON tree). Recursion stops one level past the
 * limit, so a hostile tree cannot exhaust the stack.
 */
export function checkTree(tree: SegmentNode, positionOf: (node: SegmentNode) => number = () => -1): SegmentError | null {
  let conditions = 0;
  const walk = (node: SegmentNode, depth: number): SegmentError | null => {
    if (isCombinator(node)) {
      if (depth + 1 > SEGMENT_LIMITS.depth) return segmentError("segment_too_deep", positionOf(node), "segments:limits.tooDeep", { max: SEGMENT_LIMITS.depth });
      for (const child of childrenOf(node)) {
        const error = walk(child, depth + 1);
        if (error) return error;
      }
      return null;
    }
    conditions++;
    if (conditions > SEGMENT_LIMITS.conditions) return segmentError("segment_too_many_conditions", positionOf(node), "segments:limits.tooManyConditions", { max: SEGMENT_LIMITS.conditions });
    const problem = conditionProblem(node);
    return problem ? segmentError(problem.code, positionOf(node), problem.reason, problem.params) : null;
  };
  return walk(tree, 0);
}

/**
 * The one shape of a tree: an and/or of one child is that child, and browser/platform names and
 * channel slugs are lowercase (what the store keeps). Text and JSON of the same expression give
 * deep-equal trees after this.
 */
export function normalizeTree(node: SegmentNode): SegmentNode {
  if ("and" in node) return node.and.length === 1 && node.and[0] ? normalizeTree(node.and[0]) : { and: node.and.map(normalizeTree) };
  if ("or" in node) return node.or.length === 1 && node.or[0] ? normalizeTree(node.or[0]) : { or: node.or.map(normalizeTree) };
  if ("not" in node) return { not: normalizeTree(node.not) };
  if ("field" in node && (node.field === "browser" || node.field === "platform" || node.field === "channel")) {
    const lower = (value: string | number) => (typeof value === "string" ? value.toLowerCase() : value);
    return node.op === "eq" ? { field: node.field, op: "eq", value: lower(node.value) } : { field: node.field, op: "in", values: node.values.map(lower) };
  }
  return node;
}
