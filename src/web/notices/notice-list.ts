import type { Notice } from "../../shared/api/notices.js";

/**
 * Merges notices into a list kept newest first, each once: a notice may come from the stream and
 * from a page load (a reconnect re-reads the first page), in any order.
 */
export function mergeNotices(current: readonly Notice[], incoming: readonly Notice[]): Notice[] {
  const byId = new Map<string, Notice>();
  for (const notice of current) byId.set(notice.id, notice);
  for (const notice of incoming) byId.set(notice.id, notice);
  return [...byId.values()].sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt) || b.id.localeCompare(a.id));
}
