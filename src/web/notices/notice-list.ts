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

/**
 * The list after the first page was read again (polling while the live stream is refused): new
 * notices join it, and those the page should hold but does not were withdrawn meanwhile and leave
 * it. Older notices loaded with "Carregar mais" stay, unless the page is the whole list (`complete`).
 */
export function refreshFirstPage(current: readonly Notice[], page: readonly Notice[], complete: boolean): Notice[] {
  const inPage = new Set(page.map((n) => n.id));
  const oldest = page[page.length - 1];
  const olderThanPage = (n: Notice) =>
    oldest !== undefined && (Date.parse(n.publishedAt) < Date.parse(oldest.publishedAt) || (n.publishedAt === oldest.publishedAt && n.id.localeCompare(oldest.id) < 0));
  return mergeNotices(
    current.filter((n) => inPage.has(n.id) || (!complete && olderThanPage(n))),
    page,
  );
}
