const DAY_MS = 86_400_000;

/**
 * Calendar days in a time zone. `en-CA` formats as YYYY-MM-DD; the formatter is built once per
 * use (Intl formatters are costly to make, cheap to call).
 */
export function createDayKey(timeZone: string): (epochMs: number) => string {
  const format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  return (epochMs) => format.format(epochMs);
}

/**
 * The last `days` calendar days up to the one containing `now`, oldest first,  and the first
 * instant of the oldest (to query from).
 */
export function lastDays(now: number, days: number, dayKey: (ms: number) => string): { keys: string[]; since: number } {
  const keys: string[] = [];
  // Noon-to-noon steps never skip or repeat a day across a DST change (at most ±1 h).
  let cursor = now;
  while (keys.length < days) {
    const key = dayKey(cursor);
    if (keys[0] !== key) keys.unshift(key);
    cursor -= DAY_MS / 2;
  }
  // Into the day before the oldest, then forward minute by minute to the oldest day's first minute
  // (zone offsets are whole minutes).
  while (dayKey(cursor) === keys[0]) cursor -= DAY_MS / 2;
  let since = Math.floor(cursor / 60_000) * 60_000;
  while (dayKey(since) !== keys[0]) since += 60_000;
  return { keys, since };
}
