import type { SubscriberActivityFacts } from "../../shared/api/engagement.js";
import type { SubscriberRecord } from "../../store/subscribers-repository.js";
import { DAY_MS } from "../../store/subscription-activity.js";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * A subscription's activity as the Painel shows it. `sleeping` follows the store's rule
 * (engagement-repository.ts `isSleeping`): no click and no visit (its creation standing in for a
 * visit before visits were recorded) for `sleepingDays`.
 */
export function presentActivity(s: Pick<SubscriberRecord, "createdAt" | "lastShownAt" | "lastClickedAt" | "lastVisitAt">, now: number, sleepingDays: number): SubscriberActivityFacts {
  const cutoff = now - sleepingDays * DAY_MS;
  const visit = s.lastVisitAt ?? s.createdAt;
  const sleeping = visit < cutoff && (s.lastClickedAt === null || s.lastClickedAt < cutoff);
  return { lastShownAt: iso(s.lastShownAt), lastClickedAt: iso(s.lastClickedAt), lastVisitAt: iso(s.lastVisitAt), sleeping };
}
