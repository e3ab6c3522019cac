/**
 * `--agendar` values: an ISO 8601 instant with an offset (`2026-11-21T18:00:00-03:00`, `…Z`), or
 * a wall-clock date and time (`2026-11-21 18:00`, `2026-11-21T18:00`) meaning that time in the
 * configured zone (SINO_TIME_ZONE, default America/Sao_Paulo) — as the Painel reads it.
 */
const WALL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** The instant, or null when the text is neither form or not a real date. */
export function parseScheduleTime(text: string, timeZone: string): number | null {
  const value = text.trim();
  if (WITH_OFFSET.test(value)) {
    const at = Date.parse(value);
    return Number.isNaN(at) ? null : at;
  }
  const m = WALL.exec(value);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  if (hour > 23 || minute > 59 || second > 59) return null;
  const guess = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(guess);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  // Two passes: near a DST change the offset at the first estimate may differ from the answer's.
  const first = guess - offsetAt(guess, timeZone);
  return guess - offsetAt(first, timeZone);
}

/** How far the zone's clock is ahead of UTC at an instant (São Paulo: −3 h), in ms. */
function offsetAt(epochMs: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(epochMs);
  const f: Record<string, number> = {};
  for (const part of parts) if (part.type !== "literal") f[part.type] = Number(part.value);
  const asUtc = Date.UTC(f.year ?? 0, (f.month ?? 1) - 1, f.day ?? 1, f.hour ?? 0, f.minute ?? 0, f.second ?? 0);
  return asUtc - (epochMs - (epochMs % 1000));
}

/** The instant as people in the zone read it: `21/11/2026 18:00`. */
export function formatScheduleTime(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat("pt-BR", { timeZone, dateStyle: "short", timeStyle: "short" }).format(epochMs);
}
