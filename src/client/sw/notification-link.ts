/**
 * Where a click on a notification may take the visitor. The link comes from the push payload, which
 * an operator (or a leaked API token) wrote: only this site or an https page, never `javascript:`,
 * `data:` or plain http elsewhere. Relative links resolve against the site. Null means "refuse".
 */
export function resolveNotificationLink(link: unknown, origin: string): string | null {
  if (link === undefined || link === null || link === "") return new URL("/", origin).href;
  if (typeof link !== "string") return null;
  let url: URL;
  try {
    url = new URL(link, origin);
  } catch {
    return null;
  }
  if (url.origin === new URL(origin).origin) return url.href;
  if (url.protocol === "https:" && url.username === "" && url.password === "") return url.href;
  return null;
}
