import { sql, type Kysely, type Selectable } from "kysely";
import { notificationSearchText } from "../shared/text/search-fold.js";
import type { DatabaseHandle } from "./database.js";
import type { NoticeVisibility, NotificationCategory, NotificationStatus, NotificationsTable, Schema } from "./schema.js";
import { writeTransaction } from "./write-transaction.js";
import { completedEvent, enqueueIfHooked } from "./recipient-outcomes.js";
import { inChannels, inPeople, inNotificationPeople, inSites, notFlagged } from "./audience-filter.js";
import { inSegmentAudience, resolveSegmentAudience, type SegmentAudience } from "./segment-audience.js";
import { rescheduleNotification, type RescheduleOptions } from "./reschedule-notification.js";
import type { PayloadAction } from "../shared/api/notification-payload.js";

/**
 * Who a notification goes to. `endpoint` is one browser ("send to me"): its range is that subscription's
 * id alone, so the workers' range query needs no filter for it. "channels" is filtered in both
 * the count taken here and the workers' range query (src/store/audience-filter.ts).
 */
export type Audience =
  | { readonly kind: "everyone"; readonly sites?: readonly number[] }
  | { readonly kind: "endpoint"; readonly endpoint: string }
  /** Subscriptions that chose any of these channels (ids); stored as notification_channels rows. */
  | { readonly kind: "channels"; readonly channels: readonly number[]; readonly slugs?: readonly string[]; readonly sites?: readonly number[] }
  /**
   * Every subscription of some people (the notification's notification_people rows, never in this JSON:
   * a notification may name 10,000); `people` is how many. Channels do not apply.
   */
  | { readonly kind: "people"; readonly people: number; readonly sites?: readonly number[] }
  /** The subscriptions matching a segment's expression, resolved when the notification starts (see SegmentAudience). */
  | SegmentAudience;

/** One person of a `people` send, with the placeholder values their copy is filled from. */
export interface NotificationPerson {
  readonly id: string;
  readonly data: Readonly<Record<string, string | number | boolean>> | null;
}

/**
 * The sites an audience is narrowed to (stored as notification_sites rows, applied on top
 * of "everyone" or the channels); undefined or empty: every site.
 */
export function audienceSites(audience: Audience): readonly number[] {
  return audience.kind === "endpoint" ? [] : (audience.sites ?? []);
}

export interface NewNotification {
  readonly title: string;
  readonly body: string | null;
  readonly icon: string | null;
  readonly image: string | null;
  readonly badge: string | null;
  /** `undefined`: `sino-<id>`, known only once the row exists. */
  readonly tag: string | undefined;
  readonly url: string | null;
  readonly urgency: string | null;
  readonly ttlSeconds: number;
  readonly topic: string | null;
  readonly audience: Audience;
  /** The people of a `people` audience, each once. */
  readonly people?: readonly NotificationPerson[];
  /** Default `marketing`. */
  readonly category?: NotificationCategory;
  readonly collapseKey?: string | null;
  /** Title, body or link hold placeholders filled per person: the stored payload is a template. */
  readonly personalised?: boolean;
  /**
   * When to go out (epoch ms). Later than `now`: stored as `scheduled` with no jobs; the targets
   * are taken when `startDue` sends it. Absent or not in the future: now.
   */
  readonly sendAt?: number;
  /** `hidden`: kept off the public Avisos page; default `public`. */
  readonly notice?: "public" | "hidden";
  /** The full notification (issue 19); absent: none, false. */
  readonly actions?: readonly PayloadAction[];
  readonly renotify?: boolean;
  readonly requireInteraction?: boolean;
  readonly silent?: boolean;
  readonly appBadge?: number | null;
  /** The site's JSON value; null or absent: none. */
  readonly data?: unknown;
  /** gates: an admin's override of caps, windows and sleeping. */
  readonly exempt?: boolean;
  /** gates: may reach sleeping subscriptions, once per sleeping period. */
  readonly reengagement?: boolean;
}

export interface Notification {
  readonly id: number;
  readonly title: string;
  readonly body: string | null;
  readonly icon: string | null;
  readonly image: string | null;
  readonly badge: string | null;
  readonly tag: string;
  readonly url: string | null;
  readonly urgency: string | null;
  readonly ttlSeconds: number;
  readonly topic: string | null;
  readonly audience: Audience;
  readonly category: NotificationCategory;
  readonly collapseKey: string | null;
  readonly personalised: boolean;
  readonly payload: string;
  readonly status: NotificationStatus;
  readonly createdAt: number;
  /** Scheduled notifications: when it goes (or went) out. */
  readonly sendAt: number | null;
  readonly expiresAt: number;
  readonly finishedAt: number | null;
  readonly counts: DeliveryCounts;
  /** Whether the public Avisos page shows it. */
  readonly notice: NoticeVisibility;
  readonly actions: readonly PayloadAction[];
  readonly renotify: boolean;
  readonly requireInteraction: boolean;
  readonly silent: boolean;
  readonly appBadge: number | null;
  /** The site's JSON value; null: none. */
  readonly data: unknown;
  /** The Push API declarative form of `payload` (a template, when personalised); null: classic for every browser. */
  readonly declarativePayload: string | null;
  /** An admin's override of caps, windows and sleeping (breaking news). */
  readonly exempt: boolean;
  /** local-time: while targets wait for their window, the earliest opening among them (epoch ms); else null. */
  readonly waitingUntil: number | null;
  /** gates: may reach sleeping subscriptions, once per sleeping period. */
  readonly reengagement: boolean;
}

export interface DeliveryCounts {
  readonly queued: number;
  readonly accepted: number;
  readonly retrying: number;
  readonly failed: number;
  readonly removed: number;
  /** local-time: held now for their window; and dropped because their TTL would end first. */
  readonly waiting: number;
  readonly expired: number;
  /** gates: over their frequency cap, and sleeping: kept back, neither failed nor retried. */
  readonly limited: number;
  readonly asleep: number;
}

export interface CreateNotificationOptions {
  readonly now: number;
  /** Subscription ids per range job. */
  readonly jobSize: number;
  /** The JSON the service worker will read, built once the id (hence the default tag) is known. */
  readonly payloadFor: (notification: { id: number; tag: string }) => string;
  /** The declarative form of the same push (Push API); absent: none stored, every browser gets `payloadFor`'s. */
  readonly declarativePayloadFor?: (notification: { id: number; tag: string }) => string;
}

/** The full notification's columns of a send as stored (insert and reschedule alike). */
export function fullNotificationColumns(input: NewNotification) {
  const actions = input.actions ?? [];
  return {
    actions: actions.length === 0 ? null : JSON.stringify(actions.map(({ label, url }) => ({ label, url }))),
    renotify: input.renotify === true ? 1 : 0,
    require_interaction: input.requireInteraction === true ? 1 : 0,
    silent: input.silent === true ? 1 : 0,
    app_badge: input.appBadge ?? null,
    data: input.data === undefined || input.data === null ? null : JSON.stringify(input.data),
  };
}

/** Reads back what `fullNotificationColumns` wrote. */
export function fullNotificationOf(row: { actions: string | null; renotify: number | string; require_interaction: number | string; silent: number | string; app_badge: number | string | null; data: string | null }) {
  return {
    actions: row.actions === null ? [] : (JSON.parse(row.actions) as PayloadAction[]),
    renotify: Number(row.renotify) === 1,
    requireInteraction: Number(row.require_interaction) === 1,
    silent: Number(row.silent) === 1,
    appBadge: row.app_badge === null ? null : Number(row.app_badge),
    data: row.data === null ? null : (JSON.parse(row.data) as unknown),
  };
}

export interface NotificationsRepository {
  /**
   * Stores a send and the range jobs covering every subscription that exists now, in one
   * transaction: workers may pick the jobs up the moment it commits, and a crash cannot leave a
   * send without its jobs. Subscriptions made later are not targets (the range ends at max(id)).
   */
  createWithJobs(input: NewNotification, options: CreateNotificationOptions): Promise<Notification>;
  findById(id: number): Promise<Notification | undefined>;
  /**
   * Stops a queued or sending send: its jobs end, its pending retries are dropped. Returns the
   * send as it now is, or undefined when there is none; a finished notification is returned unchanged.
   */
  cancel(id: number, now: number): Promise<Notification | undefined>;
  /**
   * Sends out scheduled notifications whose time has come: each is claimed by a conditional UPDATE
   * (`status = 'scheduled'`), so with several processes polling, exactly one starts it, and gets
   * its range jobs over the subscriptions that exist NOW, in the same transaction. At most
   * `limit` per call; returns the notifications started.
   */
  startDue(now: number, options: { jobSize: number; limit: number }): Promise<Notification[]>;
  /**
   * How many subscriptions a notification with this audience would target if it went out now: the very
   * count `createWithJobs` and `startDue` take (flagged subscriptions left out), for the compose
   * confirmation.
   */
  countTargets(audience: Audience, people?: readonly string[]): Promise<number>;
  /** Of these person ids, those with no subscription a notification narrowed to `sites` could reach, in the order given. */
  peopleWithoutSubscriptions(people: readonly string[], sites: readonly number[]): Promise<string[]>;
  /** A `people` notification's placeholder values, by person id (null: none given). */
  peopleData(notificationId: number): Promise<Map<string, NotificationPerson["data"]>>;
  /**
   * Replaces a scheduled notification's content, audience and time while it is still scheduled
   * (src/store/reschedule-notification.ts); `not_scheduled` once it started, finished or was cancelled.
   */
  reschedule(id: number, input: NewNotification, options: RescheduleOptions): Promise<Notification | "not_scheduled" | undefined>;
  /**
   * Shows a send on Avisos again (`public`), keeps it off (`hidden`) or takes it off for good
   * (`removed`). A removed send stays removed: `notice_removed`. Undefined when there is no such send.
   */
  setNotice(id: number, notice: NoticeVisibility, now: number): Promise<Notification | "notice_removed" | undefined>;
}

const INSERT_CHUNK = 500;
/** Person ids per `IN (…)` list: well under SQLite's bound-parameter limit. */
const PEOPLE_CHUNK = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function createNotificationsRepository(database: DatabaseHandle): NotificationsRepository {
  const { db } = database;
  async function createWithJobs(input: NewNotification, options: CreateNotificationOptions): Promise<Notification> {
    return writeTransaction(database, (trx) => insertNotificationWithJobs(trx, input, options));
  }

  async function findById(id: number): Promise<Notification | undefined> {
    const row = await db.selectFrom("notifications").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : toNotification(row);
  }

  async function cancel(id: number, now: number): Promise<Notification | undefined> {
    return writeTransaction(database, async (trx) => {
      // The notification row first: every writer of a notification locks it before its jobs and retries,
      // so two transactions never wait on each other in opposite orders.
      const cancelled = await trx
        .updateTable("notifications")
        .set({ status: "cancelled", retrying: 0, waiting: 0, waiting_until: null, finished_at: now })
        .where("id", "=", id)
        .where("status", "in", ["scheduled", "queued", "sending"])
        .returningAll()
        .executeTakeFirst();
      if (cancelled === undefined) {
        const row = await trx.selectFrom("notifications").selectAll().where("id", "=", id).executeTakeFirst();
        return row === undefined ? undefined : toNotification(row);
      }
      // A lane still holding a job finds it done at its next checkpoint and stops.
      await trx.updateTable("delivery_jobs").set({ done: 1 }).where("notification_id", "=", id).where("done", "=", 0).execute();
      await trx.deleteFrom("delivery_retries").where("notification_id", "=", id).execute();
      // The retries (and pushes waiting for their window) dropped will never be made: their recipients failed, and say why.
      await trx
        .updateTable("notification_recipients")
        .set({ outcome: "failed", reason: "cancelled", updated_at: now })
        .where("notification_id", "=", id)
        .where("outcome", "in", ["retrying", "waiting"])
        .execute();
      return toNotification(cancelled);
    });
  }

  async function startDue(now: number, options: { jobSize: number; limit: number }): Promise<Notification[]> {
    const started: Notification[] = [];
    while (started.length < options.limit) {
      const due = await db
        .selectFrom("notifications")
        .select("id")
        .where("status", "=", "scheduled")
        .where("send_at", "<=", now)
        .orderBy("send_at")
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
      if (due === undefined) break;
      const send = await writeTransaction(database, async (trx) => {
        // The claim: only one transaction turns it from scheduled; on PostgreSQL a concurrent one
        // waits for the row lock, re-checks the status, and matches nothing (READ COMMITTED).
        const claimed = await trx
          .updateTable("notifications")
          .set({ status: "queued" })
          .where("id", "=", Number(due.id))
          .where("status", "=", "scheduled")
          // Re-checked in the claim: an edit committed since the look may have moved it later.
          .where("send_at", "<=", now)
          .returningAll()
          .executeTakeFirst();
        if (claimed === undefined) return undefined;
        const claimedNotification = toNotification(claimed);
        // A segment is read now, not when the notification was scheduled: its expression may have changed.
        const audience = claimedNotification.audience.kind === "segment" ? await resolveSegmentAudience(trx, claimedNotification.audience, now) : claimedNotification.audience;
        const notification = { ...claimedNotification, audience };
        if (audience.kind === "segment") await insertSegmentTargets(trx, notification.id, audience);
        const range = await targetRange(trx, audience, notification.id);
        const row = await trx
          .updateTable("notifications")
          .set({
            ...(audience === claimedNotification.audience ? {} : { audience: JSON.stringify(audience) }),
            status: range.count === 0 ? "no_recipients" : "queued",
            queued: range.count,
            // The TTL counts from when it goes out, not from when it was written.
            expires_at: now + notification.ttlSeconds * 1000,
            finished_at: range.count === 0 ? now : null,
          })
          .where("id", "=", notification.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await insertJobs(trx, notification.id, range, options.jobSize, isSparse(audience));
        const started = toNotification(row);
        if (started.status === "no_recipients") await enqueueIfHooked(trx, () => [completedEvent(started)], now);
        return started;
      });
      // Claimed by another process between the look and the claim: look again.
      if (send !== undefined) started.push(send);
    }
    return started;
  }

  async function countTargets(audience: Audience, people: readonly string[] = []): Promise<number> {
    if (audience.kind === "segment") return (await targetRange(db, await resolveSegmentAudience(db, audience, Date.now()))).count;
    if (audience.kind !== "people") return (await targetRange(db, audience)).count;
    let count = 0;
    // Ids are distinct, so the chunks' subscriptions are too: their counts add up.
    for (const chunk of chunks([...new Set(people)], PEOPLE_CHUNK)) {
      const row = await db
        .selectFrom("subscriptions")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where(inPeople(chunk))
        .$if(audienceSites(audience).length > 0, (qb) => qb.where(inSites(audienceSites(audience))))
        .where(notFlagged())
        .executeTakeFirstOrThrow();
      count += Number(row.count);
    }
    return count;
  }

  async function peopleWithoutSubscriptions(people: readonly string[], sites: readonly number[]): Promise<string[]> {
    const reached = new Set<string>();
    for (const chunk of chunks([...new Set(people)], PEOPLE_CHUNK)) {
      const rows = await db
        .selectFrom("subscriptions")
        .select("person_id")
        .distinct()
        .where(inPeople(chunk))
        .$if(sites.length > 0, (qb) => qb.where(inSites(sites)))
        .where(notFlagged())
        .execute();
      for (const row of rows) if (row.person_id !== null) reached.add(row.person_id);
    }
    return [...new Set(people)].filter((id) => !reached.has(id));
  }

  async function peopleData(notificationId: number): Promise<Map<string, NotificationPerson["data"]>> {
    const rows = await db.selectFrom("notification_people").select(["person_id", "data"]).where("notification_id", "=", notificationId).execute();
    return new Map(rows.map((row) => [row.person_id, row.data === null ? null : (JSON.parse(row.data) as NotificationPerson["data"])]));
  }


  async function setNotice(id: number, notice: NoticeVisibility, now: number): Promise<Notification | "notice_removed" | undefined> {
    const row = await db
      .updateTable("notifications")
      // Leaving the page is stamped, so the live stream tells open pages to drop it.
      .set(notice === "public" ? { notice } : { notice, notice_changed_at: now })
      .where("id", "=", id)
      .where("notice", "!=", "removed")
      .returningAll()
      .executeTakeFirst();
    if (row !== undefined) return toNotification(row);
    const existing = await findById(id);
    return existing === undefined ? undefined : notice === "removed" ? existing : "notice_removed";
  }

  return {
    createWithJobs,
    findById,
    cancel,
    startDue,
    countTargets,
    peopleWithoutSubscriptions,
    peopleData,
    reschedule: (id, input, options) => rescheduleNotification(database, id, input, options),
    setNotice,
  };
}

/**
 * Stores a notification (and, unless it is scheduled for later, its range jobs) inside the caller's write
 * transaction: `createWithJobs` uses it alone, the idempotency-key store with its key row.
 */
export async function insertNotificationWithJobs(trx: Kysely<Schema>, asked: NewNotification, options: CreateNotificationOptions): Promise<Notification> {
  if (!Number.isInteger(options.jobSize) || options.jobSize < 1) throw new RangeError("jobSize must be a positive integer");
  const scheduled = asked.sendAt !== undefined && asked.sendAt > options.now;
  // A segment going out now is resolved now; a scheduled one when `startDue` sends it.
  const input = asked.audience.kind === "segment" && !scheduled ? { ...asked, audience: await resolveSegmentAudience(trx, asked.audience, options.now) } : asked;
  // A `people` notification's range is taken once its notification_people rows exist, a `segment` notification's
  // once its notification_targets rows do (below): both need the notification's id.
  const people = input.audience.kind === "people";
  const rangeLater = people || input.audience.kind === "segment";
  let range = scheduled || rangeLater ? { count: 0, min: 0, max: 0 } : await targetRange(trx, input.audience);
  const status = scheduled ? "scheduled" : range.count === 0 && !rangeLater ? "no_recipients" : "queued";
  const startsAt = scheduled ? input.sendAt! : options.now;
  const inserted = await trx
    .insertInto("notifications")
    .values({
      ...contentColumns(input),
      tag: input.tag ?? "",
      payload: "",
      status,
      created_at: options.now,
      send_at: scheduled ? input.sendAt! : null,
      expires_at: startsAt + input.ttlSeconds * 1000,
      finished_at: status === "no_recipients" ? options.now : null,
      queued: range.count,
      notice: input.notice ?? "public",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  const tag = input.tag ?? `sino-${id}`;
  if (people && input.people !== undefined && input.people.length > 0) {
    // Before the range and the jobs: both are taken through these rows (see inNotificationPeople).
    for (const chunk of chunks(input.people, INSERT_CHUNK)) {
      await trx
        .insertInto("notification_people")
        .values(chunk.map((person) => ({ notification_id: id, person_id: person.id, data: person.data === null ? null : JSON.stringify(person.data) })))
        .execute();
    }
  }
  // Sites too: a `people` notification's range below is narrowed by these rows.
  const sites = audienceSites(input.audience);
  if (sites.length > 0) {
    await trx
      .insertInto("notification_sites")
      .values([...new Set(sites)].map((site_id) => ({ notification_id: id, site_id })))
      .execute();
  }
  if (input.audience.kind === "segment" && !scheduled) await insertSegmentTargets(trx, id, input.audience);
  if (rangeLater && !scheduled) range = await targetRange(trx, input.audience, id);
  const row = await trx
    .updateTable("notifications")
    .set({
      tag,
      payload: options.payloadFor({ id, tag }),
      declarative_payload: options.declarativePayloadFor?.({ id, tag }) ?? null,
      ...(rangeLater && !scheduled ? { queued: range.count, status: range.count === 0 ? "no_recipients" : "queued", finished_at: range.count === 0 ? options.now : null } : {}),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();

  if (input.audience.kind === "channels" && input.audience.channels.length > 0) {
    // Before the jobs: the workers' range query filters on these rows (see inNotificationAudience).
    await trx
      .insertInto("notification_channels")
      .values([...new Set(input.audience.channels)].map((channel_id) => ({ notification_id: id, channel_id })))
      .execute();
  }
  await insertJobs(trx, id, range, options.jobSize, isSparse(input.audience));
  const send = toNotification(row);
  // Nothing to send to: finished at once (`no_recipients`), and reported as any finished notification is.
  if (send.status === "no_recipients") await enqueueIfHooked(trx, () => [completedEvent(send)], options.now);
  return send;
}

/**
 * Whether a notification's targets may be scattered thinly over the id range: a people notification's few devices,
 * a segment's matches. Its jobs are then sized by targets rather than by ids.
 */
function isSparse(audience: Audience): boolean {
  return audience.kind === "people" || audience.kind === "segment";
}

/** One job per `jobSize` ids over min..max (a few rows, never one per subscription). */
async function insertJobs(trx: Kysely<Schema>, id: number, range: { count: number; min: number; max: number }, jobSize: number, sparse = false): Promise<void> {
  if (range.count === 0) return;
  // A people notification's few targets are scattered over the whole id range: jobs of `jobSize` ids would
  // be mostly empty (one person's two devices, a year apart, made dozens of jobs to claim and
  // checkpoint). Its jobs split the range so that each holds about `jobSize` targets instead.
  const span = sparse ? Math.max(jobSize, Math.ceil((range.max - range.min + 1) / Math.ceil(range.count / jobSize))) : jobSize;
  const jobs: { notification_id: number; cursor: number; to_id: number }[] = [];
  for (let from = range.min; from <= range.max; from += span) {
    jobs.push({ notification_id: id, cursor: from - 1, to_id: Math.min(range.max, from + span - 1) });
  }
  for (let i = 0; i < jobs.length; i += INSERT_CHUNK) {
    await trx.insertInto("delivery_jobs").values(jobs.slice(i, i + INSERT_CHUNK)).execute();
  }
}

/**
 * A segment notification's audience, taken once as it starts (in its transaction): one INSERT ... SELECT
 * of the resolved expression, written as sets over the whole table, narrowed to the notification's sites
 * and unflagged subscriptions. The count, the range, the workers' rows and an expired job's rows
 * are all read from these rows, so a tag changed mid-send changes none of them.
 */
async function insertSegmentTargets(trx: Kysely<Schema>, notificationId: number, audience: SegmentAudience): Promise<void> {
  const sites = audienceSites(audience);
  await trx
    .insertInto("notification_targets")
    .columns(["notification_id", "subscription_id"])
    .expression((eb) =>
      eb
        .selectFrom("subscriptions")
        // A literal: PostgreSQL types a parameter in a select list as text, which bigint refuses.
        .select([sql<number>`${sql.lit(notificationId)}`.as("notification_id"), "id"])
        .where(inSegmentAudience(audience))
        .$if(sites.length > 0, (qb) => qb.where(inSites(sites)))
        .where(notFlagged()),
    )
    .execute();
}

async function targetRange(trx: Kysely<Schema>, audience: Audience, notificationId?: number): Promise<{ count: number; min: number; max: number }> {
  // A started segment notification: its notification_targets rows (insertSegmentTargets).
  if (audience.kind === "segment" && notificationId !== undefined) {
    const row = await trx
      .selectFrom("notification_targets")
      .select((eb) => [eb.fn.countAll<number | string>().as("count"), eb.fn.min("subscription_id").as("min"), eb.fn.max("subscription_id").as("max")])
      .where("notification_id", "=", notificationId)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), min: Number(row.min ?? 0), max: Number(row.max ?? 0) };
  }
  // "everyone": no filter. "channels": the same EXISTS the workers' range query applies.
  // "endpoint": the one subscription, whose id is then the whole range. "people": the stored
  // notification's notification_people rows, as the workers' query. "segment" not yet stored (a count
  // asked before sending): the resolved expression, written as sets, as insertSegmentTargets
  // takes it. Sites narrow all but "endpoint" with the same test as the workers'
  // (src/store/audience-filter.ts).
  const row = await trx
    .selectFrom("subscriptions")
    .select((eb) => [
      eb.fn.countAll<number | string>().as("count"),
      eb.fn.min("id").as("min"),
      eb.fn.max("id").as("max"),
    ])
    .$if(audience.kind === "endpoint", (qb) => qb.where("endpoint", "=", (audience as { endpoint: string }).endpoint))
    .$if(audience.kind === "channels", (qb) => qb.where(inChannels((audience as { channels: readonly number[] }).channels)))
    .$if(audience.kind === "people", (qb) => qb.where(inNotificationPeople(notificationId ?? -1)))
    .$if(audience.kind === "segment", (qb) => qb.where(inSegmentAudience(audience as SegmentAudience)))
    .$if(audienceSites(audience).length > 0, (qb) => qb.where(inSites(audienceSites(audience))))
    .where(notFlagged())
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), min: Number(row.min ?? 0), max: Number(row.max ?? 0) };
}

export function toNotification(row: Selectable<NotificationsTable>): Notification {
  return {
    id: Number(row.id),
    title: row.title,
    body: row.body,
    icon: row.icon,
    image: row.image,
    badge: row.badge,
    tag: row.tag,
    url: row.url,
    urgency: row.urgency,
    ttlSeconds: Number(row.ttl_seconds),
    topic: row.topic,
    audience: JSON.parse(row.audience) as Audience,
    category: row.category,
    collapseKey: row.collapse_key,
    personalised: Number(row.personalised) === 1,
    payload: row.payload,
    status: row.status,
    createdAt: Number(row.created_at),
    sendAt: row.send_at === null ? null : Number(row.send_at),
    expiresAt: Number(row.expires_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    counts: {
      queued: Number(row.queued),
      accepted: Number(row.accepted),
      retrying: Number(row.retrying),
      failed: Number(row.failed),
      removed: Number(row.removed),
      waiting: Number(row.waiting),
      expired: Number(row.expired),
      limited: Number(row.limited),
      asleep: Number(row.asleep),
    },
    notice: row.notice,
    ...fullNotificationOf(row),
    declarativePayload: row.declarative_payload,
    exempt: Number(row.exempt) === 1,
    waitingUntil: row.waiting_until === null ? null : Number(row.waiting_until),
    reengagement: Number(row.reengagement) === 1,
  };
}

/**
 * The columns a notification's content and audience fill, as it is created and as a scheduled one
 * is edited (reschedule-notification.ts): its tag, payloads, status and times are each caller's.
 */
export function contentColumns(input: NewNotification) {
  return {
    title: input.title,
    body: input.body,
    search_text: notificationSearchText(input.title, input.body),
    icon: input.icon,
    image: input.image,
    badge: input.badge,
    url: input.url,
    urgency: input.urgency,
    ttl_seconds: input.ttlSeconds,
    topic: input.topic,
    audience: JSON.stringify(input.audience),
    category: input.category ?? "marketing",
    collapse_key: input.collapseKey ?? null,
    personalised: input.personalised === true ? 1 : 0,
    segment_id: input.audience.kind === "segment" ? input.audience.segmentId : null,
    ...fullNotificationColumns(input),
    exempt: input.exempt === true ? 1 : 0, // gates
    reengagement: input.reengagement === true ? 1 : 0, // gates
  };
}
