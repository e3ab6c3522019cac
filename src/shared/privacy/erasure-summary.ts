import type { ErasureCountsPresentation } from "../api/privacy.js";

/** The kinds an erasure counts, in the order a confirmation lists them. */
export const ERASURE_KINDS = [
  "subscriptions",
  "channels",
  "tags",
  "personTags",
  "events",
  "deliveries",
  "pending",
  "sends",
  "consentRecords",
  "consentChanges",
  "webhookMessages",
] as const satisfies ReadonlyArray<keyof ErasureCountsPresentation>;

/** `t` as i18next gives it (server, CLI and web app alike). */
export type CountTranslate = (key: string, options: { count: number }) => string;

/**
 * What an erasure removes (or would), one pt-BR phrase per kind with rows ("2 inscrições",
 * "14 eventos de notificação"…), from the catalogue's `privacy` `counts.*`; kinds with none are
 * left out. `namespace`: `privacy:` where i18next has one namespace per file (server, CLI),
 * `privacy.` where the catalogue is one tree (the web app).
 */
export function erasureSummary(counts: ErasureCountsPresentation, t: CountTranslate, namespace: "privacy:" | "privacy." = "privacy:"): string[] {
  return ERASURE_KINDS.filter((kind) => counts[kind] > 0).map((kind) =>
    namespace === "privacy:" ? t(`privacy:counts.${kind}`, { count: counts[kind] }) : t(`privacy.counts.${kind}`, { count: counts[kind] }),
  );
}
