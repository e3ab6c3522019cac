import { randomBytes } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { SITE_KEY_LENGTH } from "../shared/api/sites.js";
import type { Database } from "./database.js";
import { toCount } from "./count.js";
import { BUILT_IN_SITE_ID } from "./migrations/0006-sites.js";
import type { Schema, SitesTable } from "./schema.js";
import { removeSubscriptionsLogged } from "./subscription-removals.js";
import { writeTransaction } from "./write-transaction.js";

export { BUILT_IN_SITE_ID };

export interface SiteRecord {
  readonly id: number;
  /** Normalised origin; null for the built-in site, whose origin is SINO_PUBLIC_URL's. */
  readonly origin: string | null;
  readonly key: string;
  readonly builtIn: boolean;
  readonly createdAt: number;
  readonly identity: SiteIdentityStatus;
  /** The site's pages may set visitor tags (`Sino.tag`). */
  readonly visitorTags: boolean;
  /** Marketing pushes per subscription per rolling 24 h; null: the server's default. */
  readonly frequencyCap: number | null;
  /** `HH:MM-HH:MM` local to each subscriber; null: the server's default. */
  readonly sendWindow: string | null;
  /** The zone of subscribers that reported none; null: SINO_TIME_ZONE. */
  readonly timeZone: string | null;
  /** The VAPID key pair (`vapid_keys.id`) its subscriptions are made with; null: Sino's default. */
  readonly vapidKeyId: number | null;
}

/** What the Painel may know of a site's identity secret: never the secret itself. */
export interface SiteIdentityStatus {
  /** Identification needs a valid signature (the default). */
  readonly verification: boolean;
  readonly hasSecret: boolean;
  /** When the current secret was generated. */
  readonly rotatedAt: number | null;
  /** Until when the previous secret is still accepted (null: none, or its grace is over). */
  readonly previousUntil: number | null;
}

/** What verifying a person's signature needs: the secrets themselves. */
export interface SiteIdentityKeys {
  readonly verification: boolean;
  readonly secret: string | null;
  readonly previousSecret: string | null;
  readonly previousUntil: number | null;
}

export interface SiteWithCount extends SiteRecord {
  /** Subscriptions made on this site. */
  readonly subscribers: number;
}

export type RemoveSiteResult = { outcome: "removed"; removedSubscribers: number } | { outcome: "not_found" } | { outcome: "built_in" };

export interface SitesRepository {
  /** The built-in site first, then by origin; with subscriber counts. */
  list(): Promise<SiteWithCount[]>;
  /** Every site without counts (what the origin cache loads). */
  listPlain(): Promise<SiteRecord[]>;
  findById(id: number): Promise<SiteWithCount | undefined>;
  /** `origin_taken` when the origin is registered already (a unique constraint: safe under concurrent creates). */
  create(origin: string, now: number): Promise<SiteWithCount | "origin_taken">;
  /**
   * Deletes a site and, in the same transaction, every subscription made on it (each logged as an
   * operator removal): a site that is gone cannot show them anything, and its service worker
   * stops being Sino's. The built-in site cannot be deleted.
   */
  remove(id: number, now: number): Promise<RemoveSiteResult>;
  /** Subscriptions made on a site (the per-site cap). */
  countSubscriptions(siteId: number): Promise<number>;
  /** Which of these ids exist. */
  existingIds(ids: readonly number[]): Promise<number[]>;
  /**
   * Generates the site's identity secret, or replaces it: the one it replaces stays valid until
   * `now + graceMs` so pages already signed with it keep working while the host deploys the new
   * one. Returns the new secret (shown once) and the site; undefined when the site does not exist.
   */
  rotateIdentitySecret(id: number, now: number, graceMs: number): Promise<{ secret: string; site: SiteWithCount } | undefined>;
  /** Turns signature verification on or off; undefined when the site does not exist. */
  setIdentityVerification(id: number, verification: boolean): Promise<SiteWithCount | undefined>;
  /** Lets the site's pages set visitor tags, or not; undefined when the site does not exist. */
  setVisitorTags(id: number, allowed: boolean): Promise<SiteWithCount | undefined>;
  /** The secrets verification needs (undefined: no such site). */
  identityKeys(id: number): Promise<SiteIdentityKeys | undefined>;
}

/** A site's identity secret: 64 lowercase hex characters (32 random bytes). */
export function newIdentitySecret(): string {
  return randomBytes(32).toString("hex");
}

/** The identity keys of a site, read with `q` (a transaction: the registration that verifies). */
export async function readIdentityKeys(q: Kysely<Schema>, siteId: number): Promise<SiteIdentityKeys | undefined> {
  const row = await q
    .selectFrom("sites")
    .select(["identity_verification", "identity_secret", "identity_previous_secret", "identity_previous_until"])
    .where("id", "=", siteId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  return {
    verification: Number(row.identity_verification) === 1,
    secret: row.identity_secret,
    previousSecret: row.identity_previous_secret,
    previousUntil: row.identity_previous_until === null ? null : Number(row.identity_previous_until),
  };
}

/** A new public key: 12 URL-safe characters from 9 random bytes. */
export function newSiteKey(): string {
  return randomBytes((SITE_KEY_LENGTH * 3) / 4).toString("base64url");
}

const MAX_KEY_ATTEMPTS = 3;
const REMOVE_CHUNK = 1000;

export function createSitesRepository(database: Pick<Database, "db" | "dialect">): SitesRepository {
  const { db } = database;

  function withCount() {
    return db
      .selectFrom("sites")
      .selectAll("sites")
      .select((eb) =>
        eb
          .selectFrom("subscriptions")
          .select((e) => e.fn.countAll<number | string>().as("n"))
          .whereRef("subscriptions.site_id", "=", "sites.id")
          .as("subscribers"),
      );
  }

  async function list(): Promise<SiteWithCount[]> {
    const rows = await withCount().orderBy("built_in", "desc").orderBy("origin").execute();
    return rows.map((row) => ({ ...toSite(row), subscribers: toCount(row.subscribers) }));
  }

  async function listPlain(): Promise<SiteRecord[]> {
    return (await db.selectFrom("sites").selectAll().execute()).map(toSite);
  }

  async function findById(id: number): Promise<SiteWithCount | undefined> {
    const row = await withCount().where("sites.id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : { ...toSite(row), subscribers: toCount(row.subscribers) };
  }

  async function create(origin: string, now: number): Promise<SiteWithCount | "origin_taken"> {
    for (let attempt = 0; attempt < MAX_KEY_ATTEMPTS; attempt++) {
      const key = newSiteKey();
      // Both unique columns can conflict; which one is told apart by looking the origin up after.
      const inserted = await db
        .insertInto("sites")
        .values({ origin, key, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .returning("id")
        .executeTakeFirst();
      if (inserted !== undefined) return (await findById(Number(inserted.id)))!;
      const taken = await db.selectFrom("sites").select("id").where("origin", "=", origin).executeTakeFirst();
      if (taken !== undefined) return "origin_taken";
      // A key collision (72 random bits: practically never): draw another.
    }
    throw new Error("could not draw an unused site key");
  }

  async function remove(id: number, now: number): Promise<RemoveSiteResult> {
    return writeTransaction(database, async (trx) => {
      const site = await trx.selectFrom("sites").select(["id", "built_in"]).where("id", "=", id).executeTakeFirst();
      if (site === undefined) return { outcome: "not_found" };
      if (Number(site.built_in) === 1) return { outcome: "built_in" };
      const ids = await subscriptionIdsOf(trx, id);
      let removed = 0;
      // In chunks: both databases cap the parameters of one statement.
      for (let i = 0; i < ids.length; i += REMOVE_CHUNK) {
        removed += (await removeSubscriptionsLogged(trx, ids.slice(i, i + REMOVE_CHUNK), "operator", now)).length;
      }
      await trx.deleteFrom("sites").where("id", "=", id).execute();
      return { outcome: "removed", removedSubscribers: removed };
    });
  }

  async function countSubscriptions(siteId: number): Promise<number> {
    const row = await db
      .selectFrom("subscriptions")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("site_id", "=", siteId)
      .executeTakeFirstOrThrow();
    return toCount(row.n);
  }

  async function existingIds(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await db.selectFrom("sites").select("id").where("id", "in", [...ids]).execute();
    return rows.map((r) => Number(r.id));
  }

  async function rotateIdentitySecret(id: number, now: number, graceMs: number): Promise<{ secret: string; site: SiteWithCount } | undefined> {
    const secret = newIdentitySecret();
    const rotated = await writeTransaction(database, async (trx) => {
      const row = await trx.selectFrom("sites").select("identity_secret").where("id", "=", id).executeTakeFirst();
      if (row === undefined) return false;
      // The first secret has nothing to keep; a rotation keeps the one it replaces for the grace
      // period (and drops an older one still in its grace: only one previous secret is kept).
      const previous = row.identity_secret;
      await trx
        .updateTable("sites")
        .set({
          identity_secret: secret,
          identity_previous_secret: previous,
          identity_previous_until: previous === null ? null : now + graceMs,
          identity_rotated_at: now,
        })
        .where("id", "=", id)
        .execute();
      return true;
    });
    if (!rotated) return undefined;
    const site = await findById(id);
    return site === undefined ? undefined : { secret, site };
  }

  async function setIdentityVerification(id: number, verification: boolean): Promise<SiteWithCount | undefined> {
    await db.updateTable("sites").set({ identity_verification: verification ? 1 : 0 }).where("id", "=", id).execute();
    return findById(id);
  }

  async function setVisitorTags(id: number, allowed: boolean): Promise<SiteWithCount | undefined> {
    await db.updateTable("sites").set({ visitor_tags: allowed ? 1 : 0 }).where("id", "=", id).execute();
    return findById(id);
  }

  function identityKeys(id: number): Promise<SiteIdentityKeys | undefined> {
    return readIdentityKeys(db, id);
  }

  return { list, listPlain, findById, create, remove, countSubscriptions, existingIds, rotateIdentitySecret, setIdentityVerification, setVisitorTags, identityKeys };
}

async function subscriptionIdsOf(trx: Kysely<Schema>, siteId: number): Promise<number[]> {
  const rows = await trx.selectFrom("subscriptions").select("id").where("site_id", "=", siteId).execute();
  return rows.map((r) => Number(r.id));
}

function toSite(row: Selectable<SitesTable>): SiteRecord {
  return {
    id: Number(row.id),
    origin: row.origin,
    key: row.key,
    builtIn: Number(row.built_in) === 1,
    createdAt: Number(row.created_at),
    visitorTags: Number(row.visitor_tags) === 1,
    frequencyCap: row.frequency_cap === null ? null : Number(row.frequency_cap),
    sendWindow: row.send_window,
    timeZone: row.time_zone,
    vapidKeyId: row.vapid_key_id === null ? null : Number(row.vapid_key_id),
    identity: {
      verification: Number(row.identity_verification) === 1,
      hasSecret: row.identity_secret !== null,
      rotatedAt: row.identity_rotated_at === null ? null : Number(row.identity_rotated_at),
      previousUntil: row.identity_previous_until === null ? null : Number(row.identity_previous_until),
    },
  };
}
