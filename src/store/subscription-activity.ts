import type { Kysely, Selectable } from "kysely";
import type { Schema, SubscriptionsTable } from "./schema.js";

/**
 * A subscription's activity (issue 18): when a push was last shown, clicked, and when the browser
 * last visited a page with the bell. Sleeping = no click and no visit for SINO_SLEEPING_DAYS.
 */

export const DAY_MS = 86_400_000;

/**
 * `last_shown_at` of the subscriptions whose `shown` reports a batch recorded: one UPDATE per
 * batch, never one per report (the reports arrive at the fan-out's rate).
 */
export async function recordLastShown(trx: Kysely<Schema>, subscriptionIds: readonly number[], at: number): Promise<void> {
  if (subscriptionIds.length === 0) return;
  // In id order, like the clicks: two batches at once (PostgreSQL) lock rows in the same order.
  const ids = [...subscriptionIds].sort((a, b) => a - b);
  await trx
    .updateTable("subscriptions")
    .set({ last_shown_at: at })
    .where("id", "in", ids)
    .where((eb) => eb.or([eb("last_shown_at", "is", null), eb("last_shown_at", "<", at)]))
    .execute();
}

/** What a re-registration would change besides its times (the stored row against the browser's word). */
export interface RegistrationFacts {
  readonly p256dh: string;
  readonly userAgent: string | null;
  readonly timeZone: string | null;
  readonly browser: string | null;
  readonly platform: string | null;
  readonly declarative: number;
  readonly vapidMismatchAt: number | null;
  readonly lastVisitAt: number | null;
}

/**
 * The bell re-registers its subscription on every page view (it learns its channels that way and a
 * server that lost it gets it back). A visit is recorded at most once a day per browser: a
 * re-registration that changes nothing and comes less than a day after the last recorded visit
 * writes nothing at all — a read, not a write. `last_seen_at` (hygiene's clock, counted in days)
 * moves with the visit.
 */
export function isRepeatVisit(stored: RegistrationFacts, incoming: Omit<RegistrationFacts, "vapidMismatchAt" | "lastVisitAt">, now: number): boolean {
  if (stored.lastVisitAt === null || now - stored.lastVisitAt >= DAY_MS || now < stored.lastVisitAt) return false;
  return (
    stored.vapidMismatchAt === null &&
    stored.p256dh === incoming.p256dh &&
    stored.userAgent === incoming.userAgent &&
    (incoming.timeZone === null || stored.timeZone === incoming.timeZone) &&
    stored.browser === incoming.browser &&
    stored.platform === incoming.platform &&
    stored.declarative === incoming.declarative
  );
}

/** The comparable facts of a stored row or of a registration's input. */
export function registrationFacts(
  source:
    | Pick<Selectable<SubscriptionsTable>, "p256dh" | "user_agent" | "time_zone" | "browser" | "platform" | "declarative" | "vapid_mismatch_at" | "last_visit_at">
    | { p256dh: string; userAgent: string | null; timeZone?: string | null | undefined; browser?: string | null | undefined; platform?: string | null | undefined; declarative?: boolean | undefined },
): RegistrationFacts {
  if ("userAgent" in source) {
    return {
      p256dh: source.p256dh,
      userAgent: source.userAgent,
      timeZone: source.timeZone ?? null,
      browser: source.browser ?? null,
      platform: source.platform ?? null,
      declarative: source.declarative === true ? 1 : 0,
      vapidMismatchAt: null,
      lastVisitAt: null,
    };
  }
  return {
    p256dh: source.p256dh,
    userAgent: source.user_agent,
    timeZone: source.time_zone,
    browser: source.browser,
    platform: source.platform,
    declarative: Number(source.declarative),
    vapidMismatchAt: source.vapid_mismatch_at === null ? null : Number(source.vapid_mismatch_at),
    lastVisitAt: source.last_visit_at === null ? null : Number(source.last_visit_at),
  };
}
