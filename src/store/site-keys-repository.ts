import type { Kysely } from "kysely";
import type { VapidKeys } from "../push/vapid-keys.js";
import { toCount } from "./count.js";
import type { Database } from "./database.js";
import type { Schema, VapidKeysTable } from "./schema.js";
import { writeTransaction } from "./write-transaction.js";

/** A stored key pair as anyone but the signer sees it: never the private key. */
export interface VapidKeyInfo {
  readonly id: number;
  readonly publicKey: string;
  readonly source: VapidKeysTable["source"];
  readonly createdAt: number;
}

/** A site's key choice: Sino's default key, or a pair (generated here, or imported from another sender). */
export type SiteKeyChoice = { readonly kind: "default" } | { readonly kind: "pair"; readonly keys: VapidKeys; readonly source: VapidKeysTable["source"] };

/** Subscriptions of one site made with one key (null: Sino's default). */
export interface KeyUsage {
  readonly keyId: number | null;
  readonly subscriptions: number;
}

/** What the Painel and `sino keys show` say about a site's keys. */
export interface SiteKeysSummary {
  readonly siteId: number;
  /** The key new subscriptions are made with; null: Sino's default. */
  readonly current: VapidKeyInfo | null;
  /** Subscriptions per key they were made with; keys other than the current one are kept while this is not zero. */
  readonly usage: readonly KeyUsage[];
  /** The site's older keys still in use (their public keys and ids). */
  readonly previous: readonly VapidKeyInfo[];
  /** Subscriptions the bell moved silently from another key to the site's ("migradas"). */
  readonly migrated: number;
}

export interface SetSiteKeyResult {
  readonly siteId: number;
  readonly previousKeyId: number | null;
  readonly current: VapidKeyInfo | null;
  /** Subscriptions of the site still made with the previous key (they keep working with it). */
  readonly onPreviousKey: number;
  /** Key rows deleted because no site and no subscription uses them any more. */
  readonly pruned: number;
}

export interface SiteKeysRepository {
  /** The pairs with these ids, private keys included: for the delivery's signers only. */
  pairsByIds(ids: readonly number[]): Promise<Map<number, VapidKeys>>;
  /** Public keys only (the embed and `/config` hand them out). */
  infoByIds(ids: readonly number[]): Promise<Map<number, VapidKeyInfo>>;
  /** The stored key with this public key, if any. */
  idOfPublicKey(publicKey: string): Promise<number | undefined>;
  /**
   * Sets the key a site's new subscriptions are made with, in one transaction: a pair whose public
   * key is stored already reuses its row (two sites of one old sender share it); the site's
   * previous key stays while subscriptions use it; keys nobody uses any more are deleted.
   * Undefined when the site does not exist.
   */
  setSiteKey(siteId: number, choice: SiteKeyChoice, now: number): Promise<SetSiteKeyResult | undefined>;
  summary(siteId: number): Promise<SiteKeysSummary | undefined>;
  /** Deletes key rows no site and no subscription refers to; returns how many. */
  pruneUnused(): Promise<number>;
}

/** Both databases cap the parameters of one statement. */
const ID_CHUNK = 500;

export function createSiteKeysRepository(database: Pick<Database, "db" | "dialect">): SiteKeysRepository {
  const { db } = database;

  async function pairsByIds(ids: readonly number[]): Promise<Map<number, VapidKeys>> {
    const out = new Map<number, VapidKeys>();
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const rows = await db.selectFrom("vapid_keys").select(["id", "public_key", "private_key"]).where("id", "in", ids.slice(i, i + ID_CHUNK)).execute();
      for (const row of rows) out.set(Number(row.id), { publicKey: row.public_key, privateKey: row.private_key });
    }
    return out;
  }

  async function infoByIds(ids: readonly number[]): Promise<Map<number, VapidKeyInfo>> {
    const out = new Map<number, VapidKeyInfo>();
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const rows = await db.selectFrom("vapid_keys").select(["id", "public_key", "source", "created_at"]).where("id", "in", ids.slice(i, i + ID_CHUNK)).execute();
      for (const row of rows) out.set(Number(row.id), toInfo(row));
    }
    return out;
  }

  async function idOfPublicKey(publicKey: string): Promise<number | undefined> {
    const row = await db.selectFrom("vapid_keys").select("id").where("public_key", "=", publicKey).executeTakeFirst();
    return row === undefined ? undefined : Number(row.id);
  }

  function setSiteKey(siteId: number, choice: SiteKeyChoice, now: number): Promise<SetSiteKeyResult | undefined> {
    return writeTransaction(database, async (trx) => {
      const site = await trx.selectFrom("sites").select(["id", "vapid_key_id"]).where("id", "=", siteId).executeTakeFirst();
      if (site === undefined) return undefined;
      const previousKeyId = site.vapid_key_id === null ? null : Number(site.vapid_key_id);
      let keyId: number | null = null;
      if (choice.kind === "pair") {
        await trx
          .insertInto("vapid_keys")
          .values({ public_key: choice.keys.publicKey, private_key: choice.keys.privateKey, source: choice.source, created_at: now })
          .onConflict((oc) => oc.column("public_key").doNothing())
          .execute();
        const row = await trx.selectFrom("vapid_keys").select("id").where("public_key", "=", choice.keys.publicKey).executeTakeFirstOrThrow();
        keyId = Number(row.id);
      }
      await trx.updateTable("sites").set({ vapid_key_id: keyId }).where("id", "=", siteId).execute();
      const onPrevious = await trx
        .selectFrom("subscriptions")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("site_id", "=", siteId)
        .where((eb) => (previousKeyId === null ? eb("vapid_key_id", "is", null) : eb("vapid_key_id", "=", previousKeyId)))
        .executeTakeFirstOrThrow();
      const pruned = await pruneIn(trx);
      const info = keyId === null ? undefined : (await trx.selectFrom("vapid_keys").select(["id", "public_key", "source", "created_at"]).where("id", "=", keyId).executeTakeFirstOrThrow());
      return {
        siteId,
        previousKeyId,
        current: info === undefined ? null : toInfo(info),
        onPreviousKey: previousKeyId === keyId ? 0 : toCount(onPrevious.n),
        pruned,
      };
    });
  }

  async function summary(siteId: number): Promise<SiteKeysSummary | undefined> {
    const site = await db.selectFrom("sites").select(["id", "vapid_key_id"]).where("id", "=", siteId).executeTakeFirst();
    if (site === undefined) return undefined;
    const usageRows = await db
      .selectFrom("subscriptions")
      .select(["vapid_key_id", (eb) => eb.fn.countAll<number | string>().as("n"), (eb) => eb.fn.count<number | string>("migrated_at").as("migrated")])
      .where("site_id", "=", siteId)
      .groupBy("vapid_key_id")
      .execute();
    const usage = usageRows.map((row) => ({ keyId: row.vapid_key_id === null ? null : Number(row.vapid_key_id), subscriptions: toCount(row.n) }));
    const currentId = site.vapid_key_id === null ? null : Number(site.vapid_key_id);
    const ids = [...new Set([...(currentId === null ? [] : [currentId]), ...usage.flatMap((u) => (u.keyId === null ? [] : [u.keyId]))])];
    const info = await infoByIds(ids);
    return {
      siteId,
      current: currentId === null ? null : (info.get(currentId) ?? null),
      usage: usage.sort((a, b) => (a.keyId ?? 0) - (b.keyId ?? 0)),
      previous: ids.filter((id) => id !== currentId).flatMap((id) => info.get(id) ?? []),
      migrated: usageRows.reduce((sum, row) => sum + toCount(row.migrated), 0),
    };
  }

  function pruneUnused(): Promise<number> {
    return writeTransaction(database, pruneIn);
  }

  return { pairsByIds, infoByIds, idOfPublicKey, setSiteKey, summary, pruneUnused };
}

/** Set-based: one statement, whatever the number of keys. */
async function pruneIn(trx: Kysely<Schema>): Promise<number> {
  const result = await trx
    .deleteFrom("vapid_keys")
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("sites").select("sites.id").whereRef("sites.vapid_key_id", "=", "vapid_keys.id"))),
    )
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("subscriptions").select("subscriptions.id").whereRef("subscriptions.vapid_key_id", "=", "vapid_keys.id"))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

function toInfo(row: { id: number | string; public_key: string; source: VapidKeysTable["source"]; created_at: number | string }): VapidKeyInfo {
  return { id: Number(row.id), publicKey: row.public_key, source: row.source, createdAt: Number(row.created_at) };
}
