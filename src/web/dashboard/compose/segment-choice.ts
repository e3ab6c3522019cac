import type { TFunction } from "i18next";
import type { NotificationAudience } from "../../../shared/api/notifications.js";
import type { SegmentTagKinds } from "../../../shared/segments/tree.js";
import type { SegmentsApi } from "../api/segments-api.js";
import { formatNumber } from "../format.js";
import { segmentCountText } from "../segments/segment-editor.js";
import type { SegmentDraft } from "../segments/segment-editor.js";
import type { ComposeValues } from "./compose-form.js";

type Translate = TFunction;

/** Compose's "Segmento" audience: a saved segment (read again when the send starts) or an expression written here. */
export interface SegmentChoice {
  source: "saved" | "written";
  /** The saved segment's id, or "" before one is chosen. */
  segmentId: string;
  draft: SegmentDraft;
}

/**
 * The expression narrowed to the chosen sites in the segment language itself (`site in (…)`), so
 * the confirmation counts what the send will take; unchanged for every site.
 */
export function narrowedToSites(expression: string, sites: readonly string[]): string {
  if (sites.length === 0 || !sites.every((id) => /^\d+$/.test(id))) return expression;
  return `(${expression})\ne site in (${sites.join(", ")})`;
}

/** What the confirmation says of a segment audience: its name (null when written here) and how many it reaches now. */
export interface SegmentConfirmation {
  name: string | null;
  subscriptions: number;
  people: number;
  /** The chosen sites' count (0: every site). */
  sites: number;
}

/** Why the segment choice cannot be sent, or undefined. */
export function segmentProblem(t: Translate, choice: SegmentChoice): string | undefined {
  if (choice.source === "saved") return choice.segmentId === "" ? t("segments.compose.segmentRequired") : undefined;
  return choice.draft.expression.trim() === "" ? t("segments.dialog.expressionRequired") : undefined;
}

/**
 * The count the confirmation shows: the saved segment's expression as it is now (a send reads it
 * when it starts) or the written one, narrowed to the chosen sites in the segment language itself
 * (`site in (…)`), so the figure is the one the send will take.
 */
export async function segmentConfirmation(api: SegmentsApi, choice: SegmentChoice, sites: readonly string[]): Promise<SegmentConfirmation> {
  let name: string | null = null;
  let expression = choice.draft.expression;
  let tagKinds: SegmentTagKinds = choice.draft.tagKinds;
  if (choice.source === "saved") {
    const segment = await api.getSegment(choice.segmentId);
    ({ name, expression, tagKinds } = segment);
  }
  const count = await api.count(narrowedToSites(expression, sites), tagKinds);
  return { name, subscriptions: count.subscriptions, people: count.people, sites: sites.length };
}

/** The notification's audience for a segment choice (a saved one by id: the server reads it when the send starts). */
export function segmentAudienceOf(choice: SegmentChoice, narrowed: { sites?: string[] }): NotificationAudience {
  return choice.source === "saved"
    ? { type: "segment", segment: choice.segmentId, ...narrowed }
    : { type: "segment", expression: choice.draft.expression, tagKinds: choice.draft.tagKinds, ...narrowed };
}

export function segmentConfirmTitle(t: Translate, when: ComposeValues["when"], confirmation: SegmentConfirmation): string {
  if (when === "later") return t("dashboard.compose.confirm.laterTitle");
  return confirmation.name === null ? t("segments.compose.confirmTitleWritten") : t("segments.compose.confirmTitle", { name: confirmation.name });
}

/** "o segmento “Premium” (1.250 inscrições · 980 pessoas)", "quem atende à expressão escrita nos 2 sites escolhidos (…)". */
export function segmentAudienceText(t: Translate, confirmation: SegmentConfirmation): string {
  const size = segmentCountText(t, confirmation);
  const who = confirmation.name === null ? t("segments.compose.whoWritten") : t("segments.compose.whoSaved", { name: confirmation.name });
  if (confirmation.sites === 0) return t("segments.compose.audience", { who, size });
  return t("segments.compose.audienceOnSites", { who, size, count: confirmation.sites, formatted: formatNumber(confirmation.sites) });
}
