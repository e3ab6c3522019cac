import type { Kysely } from "kysely";
import type { DatabaseHandle } from "./database.js";
import type { Schema } from "./schema.js";
import { audienceSites, contentColumns, toNotification, type NewNotification, type Notification } from "./notifications-repository.js";
import { writeTransaction } from "./write-transaction.js";

export interface RescheduleOptions {
  readonly now: number;
  /** The JSON the service worker will read, built with the notification's id and tag. */
  readonly payloadFor: (notification: { id: number; tag: string }) => string;
  /** Its declarative form (Push API); absent: none, classic for every browser. */
  readonly declarativePayloadFor?: (notification: { id: number; tag: string }) => string;
}

/** Rows per INSERT: well under SQLite's bound-parameter limit. */
const INSERT_CHUNK = 500;

/**
 * Replaces what a scheduled notification will send (content, audience, time) in one write transaction,
 * only while it is still `scheduled`. The row is changed first, by the same conditional UPDATE
 * the scheduler's claim makes (`status = 'scheduled'`): whichever commits first wins, and the
 * other matches nothing — on PostgreSQL the second waits for the row lock and re-checks the row
 * (READ COMMITTED); SQLite's `BEGIN IMMEDIATE` runs them one after the other. So an edit either
 * lands before the notification starts (which then goes out as edited, at the new time) or is refused
 * with `not_scheduled`; a notification never starts half-edited.
 *
 * `sendAt` not in the future: the notification is due now, and the scheduler's next look starts it.
 */
export async function rescheduleNotification(database: DatabaseHandle, id: number, input: NewNotification, options: RescheduleOptions): Promise<Notification | "not_scheduled" | undefined> {
  return writeTransaction(database, async (trx) => {
    const sendAt = input.sendAt !== undefined && input.sendAt > options.now ? input.sendAt : options.now;
    const tag = input.tag ?? `sino-${id}`;
    const updated = await trx
      .updateTable("notifications")
      .set({
        ...contentColumns(input),
        tag,
        payload: options.payloadFor({ id, tag }),
        declarative_payload: options.declarativePayloadFor?.({ id, tag }) ?? null,
        send_at: sendAt,
        expires_at: sendAt + input.ttlSeconds * 1000,
      })
      .where("id", "=", id)
      .where("status", "=", "scheduled")
      .returningAll()
      .executeTakeFirst();
    if (updated === undefined) {
      const exists = await trx.selectFrom("notifications").select("id").where("id", "=", id).executeTakeFirst();
      return exists === undefined ? undefined : "not_scheduled";
    }
    await replaceAudienceRows(trx, id, input);
    return toNotification(updated);
  });
}

/** The audience's rows (people, sites, channels) as `insertNotificationWithJobs` writes them, the old ones dropped. */
async function replaceAudienceRows(trx: Kysely<Schema>, id: number, input: NewNotification): Promise<void> {
  await trx.deleteFrom("notification_people").where("notification_id", "=", id).execute();
  await trx.deleteFrom("notification_sites").where("notification_id", "=", id).execute();
  await trx.deleteFrom("notification_channels").where("notification_id", "=", id).execute();
  const people = input.audience.kind === "people" ? (input.people ?? []) : [];
  for (let i = 0; i < people.length; i += INSERT_CHUNK) {
    await trx
      .insertInto("notification_people")
      .values(people.slice(i, i + INSERT_CHUNK).map((person) => ({ notification_id: id, person_id: person.id, data: person.data === null ? null : JSON.stringify(person.data) })))
      .execute();
  }
  const sites = [...new Set(audienceSites(input.audience))];
  if (sites.length > 0) await trx.insertInto("notification_sites").values(sites.map((site_id) => ({ notification_id: id, site_id }))).execute();
  if (input.audience.kind === "channels" && input.audience.channels.length > 0) {
    await trx
      .insertInto("notification_channels")
      .values([...new Set(input.audience.channels)].map((channel_id) => ({ notification_id: id, channel_id })))
      .execute();
  }
}
