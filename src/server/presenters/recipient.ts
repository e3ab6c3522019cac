import type { Tags } from "../../shared/api/tag-rule.js";
import type { PersonDelivery, PersonDevice, PersonSummary } from "../../shared/api/people.js";
import type { Recipient } from "../../shared/api/recipients.js";
import type { PersonDelivery as PersonDeliveryRecord, PersonDevice as PersonDeviceRecord, PersonSummary as PersonSummaryRecord } from "../../store/people-repository.js";
import type { RecipientRecord } from "../../store/recipients-repository.js";
import { describeUserAgent } from "./user-agent.js";

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** The built-in site shows SINO_PUBLIC_URL's origin, as on the sites page; a deleted site none. */
function presentSiteRef(site: { siteId: number | null; siteOrigin: string | null; siteBuiltIn: boolean }, publicOrigin: string) {
  return { id: String(site.siteId ?? ""), origin: site.siteBuiltIn ? publicOrigin : site.siteOrigin };
}

/** One recipient of a notification; never the endpoint or keys (the rows do not hold them). */
export function presentRecipient(record: RecipientRecord, publicOrigin: string): Recipient {
  return {
    subscriptionId: String(record.subscriptionId),
    userId: record.personId,
    site: presentSiteRef(record, publicOrigin),
    outcome: record.outcome,
    reason: record.reason,
    attempts: record.attempts,
    updatedAt: iso(record.updatedAt),
    shownAt: isoOrNull(record.shownAt),
    clickedAt: isoOrNull(record.clickedAt),
    closedAt: isoOrNull(record.closedAt),
  };
}

export function presentPersonSummary(person: PersonSummaryRecord): PersonSummary {
  return { userId: person.personId, subscriptions: person.subscriptions, lastSeenAt: iso(person.lastSeenAt), identifiedAt: isoOrNull(person.identifiedAt) };
}

export function presentPersonDevice(device: PersonDeviceRecord, publicOrigin: string, visitorTags: Tags = {}): PersonDevice {
  return {
    id: String(device.id),
    site: presentSiteRef(device, publicOrigin),
    ...describeUserAgent(device.userAgent),
    channels: device.channels,
    createdAt: iso(device.createdAt),
    lastSeenAt: iso(device.lastSeenAt),
    identifiedAt: isoOrNull(device.identifiedAt),
    timeZone: device.timeZone,
    visitorTags,
  };
}

export function presentPersonDelivery(delivery: PersonDeliveryRecord, publicOrigin: string): PersonDelivery {
  const { userId: _userId, ...recipient } = presentRecipient(delivery, publicOrigin);
  const n = delivery.notification;
  return { notification: { id: String(n.id), title: n.title, category: n.category, createdAt: iso(n.createdAt), status: n.status }, ...recipient };
}
