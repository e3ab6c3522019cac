import type { ExplainNode } from "../../shared/api/segments.js";
import { childrenOf } from "../../shared/segments/check.js";
import { formatSegment } from "../../shared/segments/format.js";
import type { SegmentNode } from "../../shared/segments/tree.js";
import type { SegmentSqlContext } from "../../store/segment-sql.js";
import type { SegmentFacts } from "../../store/segments-repository.js";
import { evaluateSegment } from "./evaluate.js";

/**
 * Why a subscription is or is not in a segment: the tree with, at every node, its canonical text
 * and whether it held on the subscription's facts (the evaluator's answer, the SQL's twin).
 */
export function explainSegment(tree: SegmentNode, facts: SegmentFacts, ctx: SegmentSqlContext): ExplainNode {
  const held = evaluateSegment(tree, facts, ctx);
  const children = childrenOf(tree);
  return children.length === 0 ? { text: formatSegment(tree), held } : { text: formatSegment(tree), held, children: children.map((child) => explainSegment(child, facts, ctx)) };
}
