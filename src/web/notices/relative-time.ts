const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/**
 * "há 5 minutos", "ontem", "há 3 semanas": how long ago, in pt-BR words from Intl (no hand-made
 * plurals). Under a minute it is `justNow` (Intl's "agora" reads oddly beside a past event);
 * a time slightly in the future (a clock ahead of the server's) counts as now, too.
 */
export function formatRelativeTime(iso: string, now: number, justNow: string): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 60) return justNow;
  const format = new Intl.RelativeTimeFormat("pt-BR", { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return format.format(-Math.floor(seconds / size), unit);
  }
  return justNow;
}

/** The full date and time for the tooltip and the `<time>` title: "21 de novembro de 2026 18:00". */
export function formatFullDate(iso: string): string {
  return new Intl.DateTimeFormat("pt-BR", { dateStyle: "long", timeStyle: "short" }).format(new Date(iso));
}
