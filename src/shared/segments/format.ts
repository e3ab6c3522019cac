import { plainNumberText } from "./check.js";
import { fold } from "./lex.js";
import { RESERVED_WORDS } from "./parse.js";
import type { SegmentListField, SegmentNode, SegmentTimeField, SegmentValue } from "./tree.js";
import { decimalNumber } from "./values.js";

/**
 * A tree as canonical pt-BR text: what the API answers beside the count, what a notification records and
 * what the Painel shows. `parseSegment(formatSegment(tree))` gives the tree back: every and/or
 * inside another is parenthesised (so the tree's shape survives), and a text that would read as a
 * number or is not a bare word is quoted.
 */
export function formatSegment(node: SegmentNode): string {
  if ("and" in node) return node.and.map(grouped).join(" e ");
  if ("or" in node) return node.or.map(grouped).join(" ou ");
  if ("not" in node) return `não ${grouped(node.not)}`;
  if ("tag" in node) {
    const key = RESERVED_WORDS.has(fold(node.tag)) ? `etiqueta ${node.tag}` : node.tag;
    switch (node.op) {
      case "exists":
        return `tem ${key}`;
      case "in":
        return `${key} in ${list(node.values)}`;
      default:
        return `${key} ${TAG_OPS[node.op]} ${formatValue(node.value)}`;
    }
  }
  if (node.field === "identified") return "identificado";
  switch (node.op) {
    case "olderThan":
    case "within":
      return `${TIME_WORDS[node.field]} há ${node.op === "olderThan" ? "mais" : "menos"} de ${node.amount} ${UNIT_WORDS[node.unit][node.amount === 1 ? 0 : 1]}`;
    case "before":
    case "after":
      return `${TIME_WORDS[node.field]} ${node.op === "before" ? "antes" : "depois"} de ${formatValue(node.value)}`;
    case "eq":
      return `${LIST_WORDS[node.field]} = ${formatFieldValue(node.value)}`;
    case "in":
      return `${LIST_WORDS[node.field]} in (${node.values.map(formatFieldValue).join(", ")})`;
  }
}

const TAG_OPS = { eq: "=", ne: "!=", gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
const LIST_WORDS: Record<SegmentListField, string> = { channel: "canal", site: "site", timeZone: "fuso", browser: "navegador", platform: "plataforma" };
const TIME_WORDS: Record<SegmentTimeField, string> = { subscribedAt: "inscrito", lastSeenAt: "visita", lastClickedAt: "clique" };
const UNIT_WORDS = { hours: ["hora", "horas"], days: ["dia", "dias"], weeks: ["semana", "semanas"] } as const;

const BARE = /^[\p{L}\p{M}\p{Nd}_\-./:@+]+$/u;

function grouped(node: SegmentNode): string {
  return "and" in node || "or" in node ? `(${formatSegment(node)})` : formatSegment(node);
}

function list(values: readonly SegmentValue[]): string {
  return `(${values.map(formatValue).join(", ")})`;
}

/** A tag's value: numbers bare; text bare when it reads back as the same text, else quoted. */
export function formatValue(value: SegmentValue): string {
  if (typeof value === "number") return plainNumberText(value);
  return BARE.test(value) && decimalNumber(value) === null ? value : quote(value);
}

/** A field's value reads back from its raw text (a channel slug `2026` stays a slug), so only non-bare text is quoted. */
function formatFieldValue(value: string | number): string {
  if (typeof value === "number") return plainNumberText(value);
  return BARE.test(value) ? value : quote(value);
}

function quote(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
