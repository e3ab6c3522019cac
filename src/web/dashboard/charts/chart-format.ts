/** "2026-11-21" (a calendar day in the configured zone) → "21/11": no zone conversion of a plain date. */
export function formatDay(date: string): string {
  const [year, month, day] = date.split("-").map(Number);
  if (!year || !month || !day) return date;
  return new Intl.DateTimeFormat("pt-BR", { day: "2-digit", month: "2-digit", timeZone: "UTC" }).format(Date.UTC(year, month - 1, day));
}

/** 0.125 → "12,5%". Null (nothing accepted that day) stays empty rather than a misleading 0%. */
export function formatRate(rate: number | null): string {
  if (rate === null) return "";
  return new Intl.NumberFormat("pt-BR", { style: "percent", maximumFractionDigits: 1 }).format(rate);
}
