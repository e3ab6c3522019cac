import bell from "../../shared/i18n/pt-BR/bell.json" with { type: "json" };
import embed from "../../shared/i18n/pt-BR/embed.json" with { type: "json" };

/**
 * The catalog's namespaces a bell shows (pt-BR), for the UIs that do without i18next: `<sino-bell>`
 * and `@sino/react`. `bell` holds the seed's tooltips, the unblock help and the failures; `embed`
 * the blocked status, the channel picker and the soft prompt. Sino's own pages read the same keys
 * through i18next.
 */
export const BELL_CATALOG = { bell, embed } as const;
