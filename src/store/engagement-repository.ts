import type { ExpressionBuilder, Expression, SqlBool } from "kysely";
import { subscriptionByProof } from "./subscription-proof.js";
import { toCount } from "./count.js";
import type { DatabaseHandle } from "./database.js";
import type { Schema } from "./schema.js";
import type { SubscriptionProof } from "./subscription-channels-repository.js";
import { DAY_MS } from "./subscription-activity.js";
import { recordConsentChangeIn } from "./consent-records.js";
import { writeTransaction } from "./write-transaction.js";

/** One site's split, now or on a recorded day. */
export interface SiteSplit {
  readonly siteId: number;
  readonly active: number;
  readonly sleeping: number;
}

export interface DaySplit {
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  readonly active: number;
  readonly sleeping: number;
}

export type QuietHoursResult = { outcome: "ok"; quietHours: string | null } | { outcome: "not_found" } | { outcome: "auth_mismatch" };

export interface SiteDeliveryChange {
  readonly frequencyCap?: number | null | undefined;
  readonly sendWindow?: string | null | undefined;
  readonly timeZone?: string | null | undefined;
}

export interface EngagementRepository {
  /** Every site's active / sleeping split at `now` (sites without subscriptions are absent): one grouped query. */
  splitBySite(now: number, sleepingDays: number): Promise<SiteSplit[]>;
  /** Records today's (UTC) split of every site; a second record the same day replaces the first. */
  recordDay(now: number, sleepingDays: number): Promise<number>;
  /** Recorded days from `fromDay` on (inclusive), oldest first, summed over all sites or one. */
  history(fromDay: string, siteId?: number): Promise<DaySplit[]>;
  /** The subscription's own quiet hours, with proof of possession (endpoint + auth secret). */
  quietHoursWithProof(proof: SubscriptionProof): Promise<QuietHoursResult>;
  /** Sets (or clears, with null) them, with proof; answers what is stored now. */
  setQuietHoursWithProof(proof: SubscriptionProof, quietHours: string | null): Promise<QuietHoursResult>;
  /** A site's frequency cap, send window and time zone (only the fields given); false: no such site. */
  setSiteDelivery(siteId: number, change: SiteDeliveryChange): Promise<boolean>;
}

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Sleeping: no click and no visit since `cutoff` (a subscription from before visits were recorded
 * counts its creation as its last visit). Set-based: a condition for any query on `subscriptions`.
 */
export function isSleeping(eb: ExpressionBuilder<Schema, "subscriptions">, cutoff: number): Expression<SqlBool> {
  return eb.and([
    eb(eb.fn.coalesce("subscriptions.last_visit_at", "subscriptions.created_at"), "<", cutoff),
    eb.or([eb("subscriptions.last_clicked_at", "is", null), eb("subscriptions.last_clicked_at", "<", cutoff)]),
  ]);
}

export function isActive(eb: ExpressionBuilder<Schema, "subscriptions">, cutoff: number): Expression<SqlBool> {
  return eb.or([eb(eb.fn.coalesce("subscriptions.last_visit_at", "subscriptions.created_at"), ">=", cutoff), eb("subscriptions.last_clicked_at", ">=", cutoff)]);
}

/** SINO_SLEEPING_DAYS = 0 turns sleeping off (as the delivery gate reads it): nobody is before the cutoff. */
export function sleepingCutoff(now: number, sleepingDays: number): number {
  return sleepingDays <= 0 ? Number.MIN_SAFE_INTEGER : now - sleepingDays * DAY_MS;
}

export function createEngagementRepository(database: DatabaseHandle): EngagementRepository {
  const { db } = database;

  async function splitBySite(now: number, sleepingDays: number): Promise<SiteSplit[]> {
    const cutoff = sleepingCutoff(now, sleepingDays);
    const rows = await db
      .selectFrom("subscriptions")
      .select((eb) => [
        "site_id",
        eb.fn.countAll<number | string>().as("total"),
        eb.fn.sum<number | string | null>(eb.case().when(isSleeping(eb, cutoff)).then(1).else(0).end()).as("sleeping"),
      ])
      .groupBy("site_id")
      .orderBy("site_id")
      .execute();
    return rows.map((row) => {
      const sleeping = toCount(row.sleeping ?? 0);
      return { siteId: Number(row.site_id), active: toCount(row.total) - sleeping, sleeping };
    });
  }

  async function recordDay(now: number, sleepingDays: number): Promise<number> {
    const split = await splitBySite(now, sleepingDays);
    if (split.length === 0) return 0;
    const day = utcDay(now);
    await db
      .insertInto("engagement_daily")
      .values(split.map((s) => ({ day, site_id: s.siteId, active: s.active, sleeping: s.sleeping, recorded_at: now })))
      .onConflict((oc) => oc.columns(["day", "site_id"]).doUpdateSet((eb) => ({ active: eb.ref("excluded.active"), sleeping: eb.ref("excluded.sleeping"), recorded_at: eb.ref("excluded.recorded_at") })))
      .execute();
    return split.length;
  }

  async function history(fromDay: string, siteId?: number): Promise<DaySplit[]> {
    const rows = await db
      .selectFrom("engagement_daily")
      .select((eb) => ["day", eb.fn.sum<number | string>("active").as("active"), eb.fn.sum<number | string>("sleeping").as("sleeping")])
      .where("day", ">=", fromDay)
      .$if(siteId !== undefined, (qb) => qb.where("site_id", "=", siteId!))
      .groupBy("day")
      .orderBy("day")
      .execute();
    return rows.map((row) => ({ day: row.day, active: toCount(row.active), sleeping: toCount(row.sleeping) }));
  }

  async function withProof(proof: SubscriptionProof): Promise<{ id: number; quietHours: string | null } | Exclude<QuietHoursResult, { outcome: "ok" }>> {
    const found = await subscriptionByProof(db, proof);
    if (typeof found === "string") return { outcome: found };
    const row = await db.selectFrom("subscriptions").select("quiet_hours").where("id", "=", found.id).executeTakeFirst();
    return row === undefined ? { outcome: "not_found" } : { id: found.id, quietHours: row.quiet_hours };
  }

  async function quietHoursWithProof(proof: SubscriptionProof): Promise<QuietHoursResult> {
    const found = await withProof(proof);
    return "outcome" in found ? found : { outcome: "ok", quietHours: found.quietHours };
  }

  async function setQuietHoursWithProof(proof: SubscriptionProof, quietHours: string | null): Promise<QuietHoursResult> {
    const found = await withProof(proof);
    if ("outcome" in found) return found;
    // Conditional on the auth secret read above: a browser that re-subscribed in between is not overwritten.
    // The change of choice joins the consent record (LGPD) in the same transaction.
    const changed = await writeTransaction(database, async (trx) => {
      const updated = await trx.updateTable("subscriptions").set({ quiet_hours: quietHours }).where("id", "=", found.id).where("auth", "=", proof.auth).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await recordConsentChangeIn(trx, found.id, "quiet_hours", quietHours, Date.now());
      return true;
    });
    if (!changed) return { outcome: "not_found" };
    return { outcome: "ok", quietHours };
  }

  async function setSiteDelivery(siteId: number, change: SiteDeliveryChange): Promise<boolean> {
    const set = {
      ...(change.frequencyCap === undefined ? {} : { frequency_cap: change.frequencyCap }),
      ...(change.sendWindow === undefined ? {} : { send_window: change.sendWindow }),
      ...(change.timeZone === undefined ? {} : { time_zone: change.timeZone }),
    };
    if (Object.keys(set).length === 0) return (await db.selectFrom("sites").select("id").where("id", "=", siteId).executeTakeFirst()) !== undefined;
    const updated = await db.updateTable("sites").set(set).where("id", "=", siteId).executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  return { splitBySite, recordDay, history, quietHoursWithProof, setQuietHoursWithProof, setSiteDelivery };
}

/** The subscribers list's filter: active or sleeping as of `now`. */
export function activityCondition(eb: ExpressionBuilder<Schema, "subscriptions">, activity: { kind: "active" | "sleeping"; now: number; sleepingDays: number }): Expression<SqlBool> {
  const cutoff = sleepingCutoff(activity.now, activity.sleepingDays);
  return activity.kind === "sleeping" ? isSleeping(eb, cutoff) : isActive(eb, cutoff);
}
