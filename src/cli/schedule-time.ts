import { wallClockToEpoch } from "../shared/time/zoned-time.js";

/**
 * `--schedule` values: an ISO 8601 instant with an offset (`2026-11-21T18:00:00-03:00`, `…Z`), or
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
  return wallClockToEpoch({ year, month, day, hour, minute, second }, timeZone);
}

/** The instant as people in the zone read it: `21/11/2026 18:00`. */
export function formatScheduleTime(epochMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat("pt-BR", { timeZone, dateStyle: "short", timeStyle: "short" }).format(epochMs);
}
