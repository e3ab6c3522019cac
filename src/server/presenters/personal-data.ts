import type { PersonExportResponse, SubscriptionDataPresentation } from "../../shared/api/privacy.js";
import type { PersonData, SubscriptionData } from "../../store/personal-data.js";

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
const idOrNull = (id: number | null): string | null => (id === null ? null : String(id));

/** A browser's stored data for "Meus dados" and the operator's export: ids as strings, times ISO 8601. */
export function presentSubscriptionData(data: SubscriptionData): SubscriptionDataPresentation {
  const s = data.subscription;
  return {
    subscription: {
      id: String(s.id),
      endpoint: s.endpoint,
      userAgent: s.userAgent,
      browser: s.browser,
      platform: s.platform,
      site: { id: String(s.siteId), origin: s.siteOrigin },
      createdAt: iso(s.createdAt),
      updatedAt: iso(s.updatedAt),
      lastSeenAt: iso(s.lastSeenAt),
      identifiedAt: isoOrNull(s.identifiedAt),
      timeZone: s.timeZone,
      quietHours: s.quietHours,
      declarative: s.declarative,
      lastShownAt: isoOrNull(s.lastShownAt),
      lastVisitAt: isoOrNull(s.lastVisitAt),
      lastClickedAt: isoOrNull(s.lastClickedAt),
      reengagedAt: isoOrNull(s.reengagedAt),
      warnedAt: isoOrNull(s.warnedAt),
      vapidMismatchAt: isoOrNull(s.vapidMismatchAt),
      vapidKeyId: idOrNull(s.vapidKeyId),
    },
    userId: data.userId,
    channels: [...data.channels],
    tags: data.tags.map((t) => ({ key: t.key, value: t.value, updatedAt: iso(t.updatedAt) })),
    consent:
      data.consent === null
        ? null
        : {
            givenAt: iso(data.consent.givenAt),
            siteId: idOrNull(data.consent.siteId),
            pageOrigin: data.consent.pageOrigin,
            source: data.consent.source,
            text: data.consent.text,
            catalogueVersion: data.consent.catalogueVersion,
            channels: [...data.consent.channels],
            endedAt: isoOrNull(data.consent.endedAt),
            endReason: data.consent.endReason,
          },
    consentChanges: data.consentChanges.map((c) => ({ kind: c.kind, value: c.value, at: iso(c.at) })),
    events: data.events.map((e) => ({ notificationId: String(e.notificationId), type: e.type, action: e.action, at: iso(e.at) })),
    deliveries: data.deliveries.map((d) => ({ notificationId: String(d.notificationId), outcome: d.outcome, reason: d.reason, attempts: d.attempts, at: iso(d.at) })),
    pending: data.pending.map((p) => ({ notificationId: String(p.notificationId), kind: p.kind })),
  };
}

export function presentPersonData(data: PersonData): PersonExportResponse["data"] {
  return {
    userId: data.userId,
    tags: data.tags.map((t) => ({ key: t.key, value: t.value, updatedAt: iso(t.updatedAt) })),
    sends: data.sends.map((s) => ({ notificationId: String(s.notificationId), data: s.data })),
    otherDeliveries: data.otherDeliveries.map((d) => ({ notificationId: String(d.notificationId), subscriptionId: String(d.subscriptionId), outcome: d.outcome, at: iso(d.at) })),
    subscriptions: data.subscriptions.map(presentSubscriptionData),
  };
}
