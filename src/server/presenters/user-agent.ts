import Bowser from "bowser";

/** Browser and OS names for operators' charts; null when not sent or not recognised. */
export function describeUserAgent(userAgent: string | null): { browser: string | null; os: string | null } {
  if (userAgent === null || userAgent === "") return { browser: null, os: null };
  const parsed = Bowser.parse(userAgent);
  return { browser: parsed.browser.name ?? null, os: parsed.os.name ?? null };
}
