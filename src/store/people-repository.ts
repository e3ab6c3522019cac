import { toCount } from "./count.js";
import type { DatabaseHandle } from "./database.js";
import { personIdStartsWith } from "./person-search.js";
import type { NotificationCategory, NotificationStatus } from "./schema.js";
import { recipientsWithEvents, toRecipientRecord, type RecipientRecord } from "./recipients-repository.js";
import { channelsOf } from "./subscribers-repository.js";

/** One person as the admin's list shows them: how many devices, and when one was last seen. */
export interface PersonSummary {
  readonly personId: string;
  readonly subscriptions: number;
  readonly lastSeenAt: number;
  /** The most recent identification of any of their subscriptions. */
  readonly identifiedAt: number | null;
}

/** One of a person's subscriptions; never the endpoint or keys. */
export interface PersonDevice {
  readonly id: number;
  readonly siteId: number;
  readonly siteOrigin: string | null;
  readonly siteBuiltIn: boolean;
  readonly userAgent: string | null;
  readonly channels: string[];
  readonly createdAt: number;
  readonly lastSeenAt: number;
  readonly identifiedAt: number | null;
  /** The IANA time zone its bell reported; null when unknown. */
  readonly timeZone: string | null;
}

/** A push that went to one of a person's subscriptions, with the send it belongs to. */
export interface PersonDelivery extends RecipientRecord {
  readonly notification: {
    readonly id: number;
    readonly title: string;
    readonly category: NotificationCategory;
    readonly createdAt: number;
    readonly status: NotificationStatus;
  };
}

export interface PeopleQuery {
  /** Only people whose id starts with this, ignoring case and accents ("joao" finds "João.Silva"). */
  readonly query?: string;
  readonly offset: number;
  readonly limit: number;
}

export interface PeopleRepository {
  /** People with at least one subscription, most recently seen first. */
  list(query: PeopleQuery): Promise<{ people: PersonSummary[]; total: number }>;
  /** Their subscriptions, newest first, and whether any push ever went to them. */
  find(personId: string): Promise<{ devices: PersonDevice[]; hasHistory: boolean }>;
  /** The pushes that went to them, newest send first. */
  deliveries(personId: string, page: { offset: number; limit: number }): Promise<{ deliveries: PersonDelivery[]; total: number }>;
}

export function createPeopleRepository(database: DatabaseHandle): PeopleRepository {
  const { db } = database;

  async function list(query: PeopleQuery): Promise<{ people: PersonSummary[]; total: number }> {
    const prefix = query.query;
    const identified = () =>
      db
        .selectFrom("subscriptions")
        .where("person_id", "is not", null)
        .$if(prefix !== undefined && prefix !== "", (qb) => qb.where((eb) => personIdStartsWith(eb, prefix!)));
    const totalRow = await identified()
      .select((eb) => eb.fn.count<number | string>("person_id").distinct().as("n"))
      .executeTakeFirstOrThrow();
    const rows = await identified()
      .select((eb) => [
        "person_id",
        eb.fn.countAll<number | string>().as("subscriptions"),
        eb.fn.max("last_seen_at").as("last_seen_at"),
        eb.fn.max("identified_at").as("identified_at"),
      ])
      .groupBy("person_id")
      .orderBy("last_seen_at", "desc")
      .orderBy("person_id")
      .offset(query.offset)
      .limit(query.limit)
      .execute();
    return {
      total: toCount(totalRow.n),
      people: rows.map((r) => ({
        personId: r.person_id!,
        subscriptions: toCount(r.subscriptions),
        lastSeenAt: Number(r.last_seen_at),
        identifiedAt: r.identified_at === null ? null : Number(r.identified_at),
      })),
    };
  }

  async function find(personId: string): Promise<{ devices: PersonDevice[]; hasHistory: boolean }> {
    const rows = await db
      .selectFrom("subscriptions")
      .leftJoin("sites", "sites.id", "subscriptions.site_id")
      .select([
        "subscriptions.id",
        "subscriptions.site_id",
        "sites.origin",
        "sites.built_in",
        "subscriptions.user_agent",
        "subscriptions.created_at",
        "subscriptions.last_seen_at",
        "subscriptions.identified_at",
        "subscriptions.time_zone",
      ])
      .where("subscriptions.person_id", "=", personId)
      .orderBy("subscriptions.id", "desc")
      .execute();
    const channels = await channelsOf(db, rows.map((r) => Number(r.id)));
    const history = await db.selectFrom("notification_recipients").select("subscription_id").where("person_id", "=", personId).limit(1).executeTakeFirst();
    return {
      hasHistory: history !== undefined,
      devices: rows.map((r) => ({
        id: Number(r.id),
        siteId: Number(r.site_id),
        siteOrigin: r.origin,
        siteBuiltIn: Number(r.built_in ?? 0) === 1,
        userAgent: r.user_agent,
        channels: channels.get(Number(r.id)) ?? [],
        createdAt: Number(r.created_at),
        lastSeenAt: Number(r.last_seen_at),
        identifiedAt: r.identified_at === null ? null : Number(r.identified_at),
        timeZone: r.time_zone,
      })),
    };
  }

  async function deliveries(personId: string, page: { offset: number; limit: number }): Promise<{ deliveries: PersonDelivery[]; total: number }> {
    // The (person_id, notification_id) index serves both the count and the page.
    const totalRow = await db
      .selectFrom("notification_recipients")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("person_id", "=", personId)
      .executeTakeFirstOrThrow();
    const rows = await recipientsWithEvents(db)
      .innerJoin("notifications as n", "n.id", "r.notification_id")
      .select(["n.title", "n.category", "n.created_at", "n.status"])
      .where("r.person_id", "=", personId)
      .orderBy("r.notification_id", "desc")
      .orderBy("r.subscription_id")
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    return {
      total: toCount(totalRow.n),
      deliveries: rows.map((r) => ({
        ...toRecipientRecord(r),
        notification: { id: Number(r.notification_id), title: r.title, category: r.category, createdAt: Number(r.created_at), status: r.status },
      })),
    };
  }

  return { list, find, deliveries };
}
