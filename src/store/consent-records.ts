import type { Kysely } from "kysely";
import type { ConsentChangeKind, ConsentSource, Schema } from "./schema.js";

const DAY_MS = 86_400_000;

/** What the bell sent with a registration: where consent was given and the exact text it showed. */
export interface ConsentGiven {
  readonly source: ConsentSource;
  readonly text: string;
  readonly catalogueVersion: string;
  /** The page's origin (the request's `Origin`), else the site's; null when neither is known. */
  readonly pageOrigin: string | null;
}

/**
 * Records the consent of a subscription that was just registered, inside the registration's
 * transaction. Only a new subscription, or one without a record yet, gets one: a browser that
 * registers again on each visit does not overwrite the moment it first said yes.
 */
export async function recordConsentIn(
  trx: Kysely<Schema>,
  subscription: { readonly id: number; readonly siteId: number },
  consent: ConsentGiven,
  channels: readonly string[],
  now: number,
): Promise<void> {
  await recordConsentsIn(trx, [{ subscription, consent, now }], channels);
}

/**
 * `recordConsentIn` for several new subscriptions in one statement (a batch of registrations);
 * `channels`: the slugs they all joined.
 */
export async function recordConsentsIn(
  trx: Kysely<Schema>,
  given: ReadonlyArray<{ readonly subscription: { readonly id: number; readonly siteId: number }; readonly consent: ConsentGiven; readonly now: number }>,
  channels: readonly string[],
): Promise<void> {
  if (given.length === 0) return;
  const joined = JSON.stringify([...channels].sort());
  // 8 parameters a row: 500 rows stay far under both databases' limits.
  for (let i = 0; i < given.length; i += 500) {
    await trx
      .insertInto("consent_records")
      .values(
        given.slice(i, i + 500).map(({ subscription, consent, now }) => ({
          subscription_id: subscription.id,
          site_id: subscription.siteId,
          page_origin: consent.pageOrigin,
          source: consent.source,
          text: consent.text,
          catalogue_version: consent.catalogueVersion,
          channels: joined,
          given_at: now,
        })),
      )
      .onConflict((oc) => oc.column("subscription_id").doNothing())
      .execute();
  }
}

/**
 * `pushsubscriptionchange` / key rotation: the browser's new subscription carries on the consent of
 * the one it replaces (the same person's choice on the same browser), with its changes.
 */
export async function moveConsentIn(trx: Kysely<Schema>, fromId: number, toId: number): Promise<void> {
  if (fromId === toId) return;
  const taken = await trx.selectFrom("consent_records").select("subscription_id").where("subscription_id", "=", toId).executeTakeFirst();
  if (taken === undefined) await trx.updateTable("consent_records").set({ subscription_id: toId }).where("subscription_id", "=", fromId).execute();
  await trx.updateTable("consent_changes").set({ subscription_id: toId }).where("subscription_id", "=", fromId).execute();
}

/** A later change of choice (`channels`: the slugs now; `quiet_hours`: the range or null; `unsubscribed`). */
export async function recordConsentChangeIn(trx: Kysely<Schema>, subscriptionId: number, kind: ConsentChangeKind, value: unknown, now: number): Promise<void> {
  await trx
    .insertInto("consent_changes")
    .values({ subscription_id: subscriptionId, kind, value: kind === "unsubscribed" ? null : JSON.stringify(value ?? null), created_at: now })
    .execute();
  if (kind === "unsubscribed") await endConsentIn(trx, subscriptionId, "unsubscribed", now);
}

/** The subscription ended: its record is kept from now on for the retention period only. */
export async function endConsentIn(trx: Kysely<Schema>, subscriptionId: number, reason: string, now: number): Promise<void> {
  await trx.updateTable("consent_records").set({ ended_at: now, end_reason: reason }).where("subscription_id", "=", subscriptionId).where("ended_at", "is", null).execute();
}

export interface ConsentPurgeResult {
  /** Records whose subscription was found gone and stamped as ended now. */
  readonly ended: number;
  /** Records (with their changes) deleted, their retention over. */
  readonly records: number;
  readonly changes: number;
}

/**
 * The retention pass, set-based: records whose subscription went by a path that does not stamp
 * them (a push service's 410, hygiene, an operator) are stamped as ended now; records ended more
 * than `retentionDays` ago go with their changes, and so do changes of subscriptions that are gone
 * and had no record once they are that old. Safe to run from several processes.
 */
export async function purgeEndedConsents(db: Kysely<Schema>, now: number, retentionDays: number): Promise<ConsentPurgeResult> {
  const cutoff = now - retentionDays * DAY_MS;
  const ended = await db
    .updateTable("consent_records")
    .set({ ended_at: now, end_reason: "removed" })
    .where("ended_at", "is", null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("subscriptions").select("subscriptions.id").whereRef("subscriptions.id", "=", "consent_records.subscription_id"))))
    .executeTakeFirst();
  const changes = await db
    .deleteFrom("consent_changes")
    .where((eb) =>
      eb.or([
        eb("subscription_id", "in", eb.selectFrom("consent_records").select("subscription_id").where("ended_at", "<", cutoff)),
        eb.and([
          eb("created_at", "<", cutoff),
          eb.not(eb.exists(eb.selectFrom("subscriptions").select("subscriptions.id").whereRef("subscriptions.id", "=", "consent_changes.subscription_id"))),
          eb.not(eb.exists(eb.selectFrom("consent_records").select("consent_records.subscription_id").whereRef("consent_records.subscription_id", "=", "consent_changes.subscription_id"))),
        ]),
      ]),
    )
    .executeTakeFirst();
  const records = await db.deleteFrom("consent_records").where("ended_at", "<", cutoff).executeTakeFirst();
  return { ended: Number(ended.numUpdatedRows), records: Number(records.numDeletedRows), changes: Number(changes.numDeletedRows) };
}
