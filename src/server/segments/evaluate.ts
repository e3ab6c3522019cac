import { relativeCutoff } from "../../shared/segments/moments.js";
import type { SegmentNode, SegmentTagKinds, TagCondition } from "../../shared/segments/tree.js";
import { isoDateMs } from "../../shared/segments/values.js";
import { typedSegmentValue, type SegmentSqlContext } from "../../store/segment-sql.js";
import type { SegmentFacts, TagFact } from "../../store/segments-repository.js";

/**
 * A segment evaluated in JS on one subscription's facts: what the explain view shows. It must
 * agree with the SQL of store/segment-sql.ts row for row (a randomized test holds the two
 * together on both databases); each branch mirrors the SQL one.
 */
export function evaluateSegment(tree: SegmentNode, facts: SegmentFacts, ctx: SegmentSqlContext): boolean {
  if ("and" in tree) return tree.and.every((child) => evaluateSegment(child, facts, ctx));
  if ("or" in tree) return tree.or.some((child) => evaluateSegment(child, facts, ctx));
  if ("not" in tree) return !evaluateSegment(tree.not, facts, ctx);
  if ("tag" in tree) return tagHolds(tree, facts, ctx.tagKinds);
  switch (tree.field) {
    case "identified":
      return facts.personId !== null;
    case "channel":
      return (tree.op === "eq" ? [tree.value] : tree.values).some((slug) => {
        const id = ctx.channelIds.get(String(slug));
        return id !== undefined && facts.channelIds.has(id);
      });
    case "site":
    case "timeZone":
    case "browser":
    case "platform": {
      const actual = tree.field === "site" ? facts.siteId : facts[tree.field];
      return actual !== null && (tree.op === "eq" ? [tree.value] : tree.values).some((value) => value === actual);
    }
    case "subscribedAt":
    case "lastSeenAt":
    case "lastClickedAt": {
      const moment = tree.field === "subscribedAt" ? facts.createdAt : tree.field === "lastSeenAt" ? facts.lastSeenAt : facts.lastClickedAt;
      switch (tree.op) {
        case "before":
          return moment !== null && moment < (isoDateMs(tree.value) ?? 0);
        case "after":
          return moment !== null && moment >= (isoDateMs(tree.value) ?? 0);
        case "within":
          return moment !== null && moment >= relativeCutoff(ctx.now, tree.amount, tree.unit);
        case "olderThan":
          return moment === null || moment < relativeCutoff(ctx.now, tree.amount, tree.unit);
      }
    }
  }
}

function tagHolds(condition: TagCondition, facts: SegmentFacts, tagKinds: SegmentTagKinds): boolean {
  const on = (tags: ReadonlyMap<string, TagFact>) => {
    const fact = tags.get(condition.tag);
    return fact !== undefined && factHolds(condition, fact);
  };
  if (tagKinds === "trusted") return on(facts.trustedTags);
  if (tagKinds === "visitor") return on(facts.visitorTags);
  return on(facts.trustedTags) || on(facts.visitorTags);
}

const COLUMN_OF = { value: "value", num_value: "num", time_value: "time" } as const;

function factHolds(condition: TagCondition, fact: TagFact): boolean {
  if (condition.op === "exists") return true;
  if (condition.op === "in") {
    return condition.values.some((value) => {
      const typed = typedSegmentValue(value);
      return fact[COLUMN_OF[typed.column]] === typed.value;
    });
  }
  const typed = typedSegmentValue(condition.value);
  const actual = fact[COLUMN_OF[typed.column]];
  if (condition.op === "ne") return actual === null || actual !== typed.value;
  if (actual === null) return false;
  switch (condition.op) {
    case "eq":
      return actual === typed.value;
    case "gt":
      return actual > typed.value;
    case "gte":
      return actual >= typed.value;
    case "lt":
      return actual < typed.value;
    case "lte":
      return actual <= typed.value;
  }
}
