/**
 * A daily stretch of wall-clock time written `HH:MM-HH:MM` (a site's send window, a subscriber's
 * quiet hours). The end is exclusive; an end at or before the start wraps past midnight
 * (`22:00-07:00`), and equal ends cover the whole day.
 */
export interface DailyWindow {
  /** Minutes after local midnight, 0–1439. */
  readonly start: number;
  readonly end: number;
}

/** What SINO_SEND_WINDOW is unless set: marketing goes out between 8h and 21h where the subscriber is. */
export const DEFAULT_SEND_WINDOW = "08:00-21:00";

const WINDOW = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** The window `text` writes, or undefined when it is not `HH:MM-HH:MM` with real times. */
export function parseDailyWindow(text: string): DailyWindow | undefined {
  const match = WINDOW.exec(text.trim());
  if (match === null) return undefined;
  const [, h1, m1, h2, m2] = match.map(Number) as [number, number, number, number, number];
  return { start: h1 * 60 + m1, end: h2 * 60 + m2 };
}

/** Whether the minute of the day `minute` (0–1439) falls inside `window`. */
export function insideDailyWindow(window: DailyWindow, minute: number): boolean {
  if (window.start === window.end) return true;
  return window.start < window.end ? minute >= window.start && minute < window.end : minute >= window.start || minute < window.end;
}

/** Quiet hours say when not to send: the window they leave open is their complement. */
export function openOutside(quiet: DailyWindow): DailyWindow {
  return { start: quiet.end, end: quiet.start };
}

/** `08:00` for 480. */
export function formatMinuteOfDay(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}
