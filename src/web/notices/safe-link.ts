/**
 * A notice's link or image as the page may use it: only http(s) (never `javascript:` or `data:`,
 * which an operator's typo or a leaked token could put there), relative ones resolved against the
 * site, no credentials in the URL. Null means "do not render it".
 */
export function safeHttpUrl(value: string | null | undefined, origin: string): string | null {
  if (!value) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username !== "" || url.password !== "") return null;
  return url.href;
}
