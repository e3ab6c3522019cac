/**
 * Wall-clock time in a named time zone ↔ instants, with nothing but Intl (no tz database in the
 * bundle). Operators enter "dia 12, 14:00" meaning 14:00 in the configured zone (SINO_TIME_ZONE),
 * not in whatever zone their laptop is set to; `sino send --agendar` reads wall times the same way.
 */

/** The zone Sino counts days and reads schedules in unless SINO_TIME_ZONE says otherwise. */
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

export interface WallTime {
  /** `YYYY-MM-DD`, as an `<input type="date">` gives it. */
  date: string;
  /** `HH:MM`, as an `<input type="time">` gives it. */
  time: string;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2})$/;

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

function zonedFields(epochMs: number, timeZone: string): Record<string, number> {
  const fields: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(epochMs)) {
    if (part.type !== "literal") fields[part.type] = Number(part.value);
  }
  return fields;
}

/** How far the zone's wall clock is ahead of UTC at that instant, in ms (São Paulo: −3 h). */
function offsetAt(epochMs: number, timeZone: string): number {
  const f = zonedFields(epochMs, timeZone);
  const asUtc = Date.UTC(f.year ?? 0, (f.month ?? 1) - 1, f.day ?? 1, f.hour ?? 0, f.minute ?? 0, f.second ?? 0);
  return asUtc - (epochMs - (epochMs % 1000));
}

/** A wall-clock reading, month from 1, as people write it. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number | undefined;
}

/**
 * The instant at which the zone's clock shows `wall`, or null when it is not a real date and
 * time. A time skipped by a DST change resolves to the instant just after the gap.
 */
export function wallClockToEpoch(wall: WallClock, timeZone: string): number | null {
  const { year, month, day, hour, minute, second = 0 } = wall;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const guess = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(guess);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  // Two passes: the offset at the first estimate may differ from the one at the answer near a DST change.
  const first = guess - offsetAt(guess, timeZone);
  return guess - offsetAt(first, timeZone);
}

/** `wallClockToEpoch` for the date and time inputs' text; null when the text is malformed. */
export function wallTimeToEpoch(wall: WallTime, timeZone: string): number | null {
  const d = DATE.exec(wall.date);
  const t = TIME.exec(wall.time);
  if (!d || !t) return null;
  const [year, month, day, hour, minute] = [d[1], d[2], d[3], t[1], t[2]].map(Number) as [number, number, number, number, number];
  return wallClockToEpoch({ year, month, day, hour, minute }, timeZone);
}

/** The zone's wall clock at an instant, in the inputs' formats. */
export function epochToWallTime(epochMs: number, timeZone: string): WallTime {
  const f = zonedFields(epochMs, timeZone);
  const pad = (n: number | undefined) => String(n ?? 0).padStart(2, "0");
  return { date: `${f.year}-${pad(f.month)}-${pad(f.day)}`, time: `${pad(f.hour)}:${pad(f.minute)}` };
}
