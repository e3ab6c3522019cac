import type { Kysely } from "kysely";
import { foldForSearch } from "../shared/text/search-fold.js";
import type { WebhookEvent } from "../shared/api/webhook-events.js";
import type { Schema } from "./schema.js";

/** What identifying or forgetting needs of a subscription row. */
export interface PersonLinkTarget {
  readonly id: number;
  readonly siteId: number;
  readonly personId: string | null;
}

/**
 * Ties a subscription to `personId`, inside the caller's transaction. The last identification
 * wins: a browser identified as someone else moves to this person (the other is told
 * `person.forgotten`). Identifying it again as the same person changes nothing, so the bell's
 * re-registration on every visit writes nothing and queues no event. Returns the events to queue.
 */
export async function identifySubscription(trx: Kysely<Schema>, target: PersonLinkTarget, personId: string, now: number): Promise<WebhookEvent[]> {
  if (target.personId === personId) return [];
  await trx.updateTable("subscriptions").set({ person_id: personId, person_key: foldForSearch(personId), identified_at: now }).where("id", "=", target.id).execute();
  const events: WebhookEvent[] = [];
  if (target.personId !== null) events.push(personEvent("person.forgotten", target, target.personId));
  events.push(personEvent("person.identified", target, personId));
  return events;
}

/** Makes a subscription anonymous again (its channels stay), inside the caller's transaction. */
export async function forgetSubscription(trx: Kysely<Schema>, target: PersonLinkTarget): Promise<WebhookEvent[]> {
  if (target.personId === null) return [];
  await trx.updateTable("subscriptions").set({ person_id: null, person_key: null, identified_at: null }).where("id", "=", target.id).execute();
  return [personEvent("person.forgotten", target, target.personId)];
}

function personEvent(type: "person.identified" | "person.forgotten", target: PersonLinkTarget, personId: string): WebhookEvent {
  return { type, data: { subscriptionId: String(target.id), userId: personId, siteId: String(target.siteId) } };
}
