import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import type { DatabaseHandle } from "./database.js";
import { inChannels, inPeople, inSites, notFlagged } from "./audience-filter.js";
import { audienceSites, type Audience } from "./notifications-repository.js";
import { insertRecipientRows, type Recipient, type RecipientResult } from "./recipient-outcomes.js";
import type { Schema } from "./schema.js";
import { inSegmentAudience, resolveSegmentAudience, type SegmentAudience } from "./segment-audience.js";

/** A rolling day: the frequency cap counts the marketing pushes accepted in it. */
export const CAP_WINDOW_MS = 86_400_000;
const DAY_MS = 86_400_000;

/** The server-wide engagement rules (SINO_FREQUENCY_CAP, SINO_SLEEPING_DAYS); 0 turns a rule off. */
export interface EngagementRules {
  /** Marketing pushes per subscription per rolling 24 h, unless its site sets its own. */
  readonly frequencyCap: number;
  /** Days without a click or a visit after which a subscription is sleeping (`adormecida`). */
  readonly sleepingDays: number;
}

/** What the engagement gate of one sub-batch kept back, recorded in its checkpoint. */
export interface EngagementSkips {
  /** Over their frequency cap: counted `limited`, with a `limited` recipient row. */
  readonly limited: readonly Recipient[];
  /** Sleeping: counted `asleep`, with an `asleep` recipient row. */
  readonly asleep: readonly Recipient[];
  /** Sleeping subscriptions a re-engagement send went to: their `reengaged_at` is set. */
  readonly reengaged: readonly number[];
}

/** How many of an audience a marketing send made now would leave out. */
export interface GatedCounts {
  /** Awake subscriptions already at their site's cap in the last 24 h. */
  readonly limited: number;
  /** Sleeping subscriptions (no click and no visit for SINO_SLEEPING_DAYS). */
  readonly asleep: number;
}

export interface DeliveryGatesRepository {
  /**
   * Marketing pushes accepted in (since, now] per subscription, for one batch's ids: ONE query (a
   * probe of the partial index `notification_recipients_accepted_recent` per id). Ids with none are
   * absent from the map.
   */
  recentMarketingCounts(ids: readonly number[], since: number): Promise<Map<number, number>>;
  /** GET /audience: how many of an audience are at their cap now, and how many are sleeping. */
  countGated(audience: Audience, people: readonly string[], rules: EngagementRules, siteCaps: ReadonlyMap<number, number | null>, now: number): Promise<GatedCounts>;
}

/**
 * Sleeping: no click and no visit (`last_visit_at`, else `created_at`) after `cutoff`, as the
 * worker's gate decides it from the same columns (src/delivery/gates/engagement-gate.ts).
 */
function sleepingAt(cutoff: number) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) =>
    eb.and([
      eb(eb.fn.coalesce("subscriptions.last_clicked_at", sql.lit(0)), "<=", cutoff),
      eb(eb.fn.coalesce("subscriptions.last_visit_at", "subscriptions.created_at"), "<=", cutoff),
    ]);
}

const PEOPLE_CHUNK = 500;

/**
 * The marketing pushes a subscription accepted after `since`, as a column of a query over
 * `subscriptions`: the workers' range query selects it (`recent_marketing`) for a capped send, so
 * the frequency cap costs the fan-out no query of its own, only one probe of the partial index
 * `notification_recipients_accepted_recent` per row it returns. The same count as
 * `recentMarketingCounts`, which stays for the callers that have ids rather than rows.
 */
export function recentMarketingCount(since: number) {
  return (eb: ExpressionBuilder<Schema, "subscriptions">) =>
    eb
      .selectFrom("notification_recipients")
      .innerJoin("notifications", "notifications.id", "notification_recipients.notification_id")
      .select((inner) => inner.fn.countAll<number | string>().as("count"))
      .whereRef("notification_recipients.subscription_id", "=", "subscriptions.id")
      // Literals, not parameters: both planners match them against the partial index's predicate.
      .where(sql<boolean>`notification_recipients.outcome = ${sql.lit("accepted")}`)
      .where("notification_recipients.updated_at", ">", since)
      .where(sql<boolean>`notifications.category = ${sql.lit("marketing")}`);
}

export function createDeliveryGatesRepository(database: DatabaseHandle): DeliveryGatesRepository {
  const { db } = database;

  async function recentMarketingCounts(ids: readonly number[], since: number): Promise<Map<number, number>> {
    const counts = new Map<number, number>();
    if (ids.length === 0) return counts;
    const rows = await db
      .selectFrom("notification_recipients")
      .innerJoin("notifications", "notifications.id", "notification_recipients.notification_id")
      .select((eb) => ["notification_recipients.subscription_id", eb.fn.countAll<number | string>().as("count")])
      .where("notification_recipients.subscription_id", "in", [...ids])
      // Literals, not parameters: both planners match them against the partial index's predicate.
      .where(sql<boolean>`notification_recipients.outcome = ${sql.lit("accepted")}`)
      .where("notification_recipients.updated_at", ">", since)
      .where(sql<boolean>`notifications.category = ${sql.lit("marketing")}`)
      .groupBy("notification_recipients.subscription_id")
      .execute();
    for (const row of rows) counts.set(Number(row.subscription_id), Number(row.count));
    return counts;
  }

  async function countGated(audience: Audience, people: readonly string[], rules: EngagementRules, siteCaps: ReadonlyMap<number, number | null>, now: number): Promise<GatedCounts> {
    const resolved = audience.kind === "segment" ? await resolveSegmentAudience(db, audience, now) : audience;
    // People: their subscriptions in chunks (ids are distinct, so the chunks' counts add up).
    const groups: (readonly string[] | undefined)[] = resolved.kind === "people" ? chunksOf([...new Set(people)], PEOPLE_CHUNK) : [undefined];
    let limited = 0;
    let asleep = 0;
    for (const group of groups) {
      const counts = await countGroup(db, resolved, group, rules, siteCaps, now);
      limited += counts.limited;
      asleep += counts.asleep;
    }
    return { limited, asleep };
  }

  return { recentMarketingCounts, countGated };
}

async function countGroup(
  db: Kysely<Schema>,
  audience: Audience,
  people: readonly string[] | undefined,
  rules: EngagementRules,
  siteCaps: ReadonlyMap<number, number | null>,
  now: number,
): Promise<GatedCounts> {
  const sites = audienceSites(audience);
  const base = () =>
    db
      .selectFrom("subscriptions")
      .$if(audience.kind === "endpoint", (qb) => qb.where("subscriptions.endpoint", "=", (audience as { endpoint: string }).endpoint))
      .$if(audience.kind === "channels", (qb) => qb.where(inChannels((audience as { channels: readonly number[] }).channels)))
      .$if(people !== undefined, (qb) => qb.where(inPeople(people!)))
      .$if(audience.kind === "segment", (qb) => qb.where(inSegmentAudience(audience as SegmentAudience)))
      .$if(sites.length > 0, (qb) => qb.where(inSites(sites)))
      .where(notFlagged());
  const cutoff = now - rules.sleepingDays * DAY_MS;
  const sleeping = rules.sleepingDays > 0;
  const asleepRow = sleeping
    ? await base()
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where(sleepingAt(cutoff))
        .executeTakeFirstOrThrow()
    : { count: 0 };
  // At their cap: the recipient rows of the marketing sends still live or finished in the last
  // 24 h (through the (notification_id, subscription_id) key), grouped per subscription, against
  // each subscription's site cap. Sites whose cap is 0 (off) are left out.
  const since = now - CAP_WINDOW_MS;
  const custom = [...siteCaps].filter((entry): entry is [number, number] => entry[1] !== null);
  // One count per distinct cap (a handful): the default one for every site without its own.
  const groups: { cap: number; narrow: (qb: ReturnType<typeof base>) => ReturnType<typeof base> }[] = [
    { cap: rules.frequencyCap, narrow: (qb) => (custom.length === 0 ? qb : qb.where("subscriptions.site_id", "not in", custom.map(([id]) => id))) },
    ...[...new Set(custom.map(([, cap]) => cap))].map((cap) => ({
      cap,
      narrow: (qb: ReturnType<typeof base>) => qb.where("subscriptions.site_id", "in", custom.filter(([, own]) => own === cap).map(([id]) => id)),
    })),
  ];
  let limited = 0;
  for (const { cap, narrow } of groups) {
    if (cap <= 0) continue;
    const row = await narrow(base())
      .innerJoin(
        (eb) =>
          eb
            .selectFrom("notification_recipients")
            .innerJoin("notifications", "notifications.id", "notification_recipients.notification_id")
            .select((inner) => ["notification_recipients.subscription_id as sid", inner.fn.countAll<number | string>().as("pushes")])
            .where(sql<boolean>`notifications.category = ${sql.lit("marketing")}`)
            .where((inner) => inner.or([inner("notifications.finished_at", "is", null), inner("notifications.finished_at", ">", since)]))
            .where(sql<boolean>`notification_recipients.outcome = ${sql.lit("accepted")}`)
            .where("notification_recipients.updated_at", ">", since)
            .groupBy("notification_recipients.subscription_id")
            .as("recent"),
        (join) => join.onRef("recent.sid", "=", "subscriptions.id"),
      )
      .select((eb) => eb.fn.countAll<number | string>().as("count"))
      .where("recent.pushes", ">=", cap)
      .$if(sleeping, (qb) => qb.where((eb) => eb.not(sleepingAt(cutoff)(eb))))
      .executeTakeFirstOrThrow();
    limited += Number(row.count);
  }
  return { limited, asleep: Number(asleepRow.count) };
}

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out.length === 0 ? [[]] : out;
}

/**
 * The engagement part of a range checkpoint, in its transaction: the `limited` and `asleep`
 * counters, their recipient rows (one multi-row INSERT per chunk) and the re-engaged
 * subscriptions' `reengaged_at` (one UPDATE). Nothing at all when the gate kept nothing back.
 */
export async function recordEngagementSkips(trx: Kysely<Schema>, notificationId: number, skips: EngagementSkips | undefined, now: number): Promise<void> {
  if (skips === undefined) return;
  const { limited, asleep, reengaged } = skips;
  if (limited.length > 0 || asleep.length > 0) {
    await trx
      .updateTable("notifications")
      .set((eb) => ({ limited: eb("limited", "+", limited.length), asleep: eb("asleep", "+", asleep.length) }))
      .where("id", "=", notificationId)
      .execute();
    const rows: RecipientResult[] = [
      ...limited.map((recipient) => ({ recipient, outcome: "limited" as const, reason: null })),
      ...asleep.map((recipient) => ({ recipient, outcome: "asleep" as const, reason: null })),
    ];
    await insertRecipientRows(trx, notificationId, rows, now);
  }
  if (reengaged.length > 0) await trx.updateTable("subscriptions").set({ reengaged_at: now }).where("id", "in", [...reengaged]).execute();
}
