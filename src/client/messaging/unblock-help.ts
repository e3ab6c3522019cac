/** The catalog key of the instructions for unblocking notifications in the browser that `userAgent` names. */
export type UnblockHelpKey =
  | "bell.blocked.chrome"
  | "bell.blocked.edge"
  | "bell.blocked.firefox"
  | "bell.blocked.safari"
  | "bell.blocked.ios"
  | "bell.blocked.other";

export function unblockHelpKey(userAgent: string, maxTouchPoints = 0): UnblockHelpKey {
  // Order matters: Edge and Chrome both say "Chrome/", and every Chromium says "Safari/".
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1)) {
    return "bell.blocked.ios";
  }
  if (/\bEdg(e|A|iOS)?\//.test(userAgent)) return "bell.blocked.edge";
  if (/\bFirefox\//.test(userAgent)) return "bell.blocked.firefox";
  if (/\b(Chrome|Chromium|CriOS|HeadlessChrome)\//.test(userAgent)) return "bell.blocked.chrome";
  if (/\bSafari\//.test(userAgent)) return "bell.blocked.safari";
  return "bell.blocked.other";
}
