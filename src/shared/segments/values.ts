/**
 * How a tag's text reads as a number or a moment: the one rule shared by the tag store (which fills
 * `num_value` / `time_value`), the segment parser (which decides what a bare `18` or
 * `2026-01-01` in an expression is) and the evaluator, so the SQL and the explain view never
 * disagree on what compares as what.
 */

/**
 * A plain decimal: optional minus, no leading zeros (a CEP like `01310` stays text), optional
 * fraction; at most 15 digits, so every such number is exact in a double and two different texts
 * never collide as the same number.
 */
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;
const MAX_DECIMAL_DIGITS = 15;

/** The number a plain decimal text stands for (`18`, `-2.5`), else null (`1e3`, `01310`, ` 18`, `18,5`). */
export function decimalNumber(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  let digits = 0;
  for (const ch of text) if (ch >= "0" && ch <= "9") digits++;
  if (digits > MAX_DECIMAL_DIGITS) return null;
  const value = Number(text);
  return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : null;
}

/** Whether a text is a plain decimal (see decimalNumber). */
export function isDecimalText(text: string): boolean {
  return decimalNumber(text) !== null;
}

/**
 * `YYYY-MM-DD` (midnight UTC), or `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or `±HH:MM`.
 * A date-time without a zone is not a moment (whose clock?) and reads as text.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** The epoch ms of an ISO date or date-time with zone (see ISO_DATE), else null (also for impossible dates like 2026-02-30). */
export function isoDateMs(text: string): number | null {
  const m = ISO_DATE.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, "0")));
  const check = new Date(utc);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== "Z") {
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) return null;
    offsetMinutes = (zone.startsWith("-") ? -1 : 1) * (zh * 60 + zm);
  }
  return utc - offsetMinutes * 60_000;
}
