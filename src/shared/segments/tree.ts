/**
 * A segment's expression as a JSON tree: what the API takes beside the text form, what is stored
 * (segments.expression, a `segment` notification's audience), and what the SQL compiler and the explain
 * evaluator walk. The text form (src/shared/segments/parse.ts) parses to exactly this.
 */

/** A tag's value in a condition: text, or a number; an ISO date is a string that compares as a date. */
export type SegmentValue = string | number;

/** A condition on a tag (trusted, visitor or both: the segment's `tagKinds` says which). */
export type TagCondition =
  /** `tem vip`: the tag is present, with or without a value. */
  | { readonly tag: string; readonly op: "exists" }
  /** `plano = premium`, `idade >= 18`, `nascimento < 2010-01-01`. */
  | { readonly tag: string; readonly op: "eq" | "ne" | "gt" | "gte" | "lt" | "lte"; readonly value: SegmentValue }
  /** `bairro in (Centro, Cambuí)`. */
  | { readonly tag: string; readonly op: "in"; readonly values: readonly SegmentValue[] };

/** Fields of the subscription compared with a value or a list (`canal = obras`, `navegador in (firefox, chrome)`). */
export type SegmentListField = "channel" | "site" | "timeZone" | "browser" | "platform";

/** Moments of the subscription: when it was made, last seen (a visit), last clicked a notification. */
export type SegmentTimeField = "subscribedAt" | "lastSeenAt" | "lastClickedAt";

export type SegmentTimeUnit = "hours" | "days" | "weeks";

export type FieldCondition =
  /** `channel`: slug; `site`: site id; `timeZone`: IANA name; `browser`, `platform`: lowercase names. */
  | { readonly field: SegmentListField; readonly op: "eq"; readonly value: string | number }
  | { readonly field: SegmentListField; readonly op: "in"; readonly values: readonly (string | number)[] }
  /** `inscrito antes de 2026-01-01` / `depois de`: an ISO date or date-time. */
  | { readonly field: SegmentTimeField; readonly op: "before" | "after"; readonly value: string }
  /**
   * `visita há mais de 30 dias` (`olderThan`) / `há menos de 7 dias` (`within`), relative to the
   * moment the expression is evaluated (a notification: when it starts). A never-clicked subscription is
   * "há mais de" any time and never "há menos de".
   */
  | { readonly field: SegmentTimeField; readonly op: "olderThan" | "within"; readonly amount: number; readonly unit: SegmentTimeUnit }
  /** `identificado`: tied to a person (user id). */
  | { readonly field: "identified" };

export type SegmentCondition = TagCondition | FieldCondition;

export type SegmentNode =
  | SegmentCondition
  | { readonly and: readonly SegmentNode[] }
  | { readonly or: readonly SegmentNode[] }
  | { readonly not: SegmentNode };

/** Which tags a segment's tag conditions read; visitor tags are set by pages, never trusted. */
export type SegmentTagKinds = "trusted" | "visitor" | "all";
export const SEGMENT_TAG_KINDS = ["trusted", "visitor", "all"] as const;

/** Limits that keep the database safe; each refusal is a 400 naming its limit. */
export const SEGMENT_LIMITS = {
  /** Characters of the text form (`segment_too_long`). */
  textLength: 4_000,
  /** Nesting of and/or/not (`segment_too_deep`). */
  depth: 10,
  /** Conditions in one expression (`segment_too_many_conditions`). */
  conditions: 50,
  /** Values of one `in` list (`segment_list_too_long`). */
  listSize: 100,
  /** A count or explain statement's time on PostgreSQL (`segment_timeout`). */
  statementTimeoutMs: 5_000,
} as const;
