import type { DatabaseHandle } from "./database.js";

export interface SettingsRepository {
  get(key: string): Promise<string | undefined>;
  /** Stores `value` only if `key` has none yet; returns the value the database now holds. */
  insertIfAbsent(key: string, value: string): Promise<string>;
  set(key: string, value: string): Promise<void>;
}

export function createSettingsRepository(database: DatabaseHandle): SettingsRepository {
  const { db } = database;
  async function get(key: string): Promise<string | undefined> {
    const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
    return row?.value;
  }

  async function insertIfAbsent(key: string, value: string): Promise<string> {
    // ON CONFLICT DO NOTHING then read back: when several processes race, exactly one insert wins
    // and every process returns the winner's value.
    await db
      .insertInto("settings")
      .values({ key, value })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
    const stored = await get(key);
    if (stored === undefined) throw new Error(`Setting ${key} vanished right after it was inserted`);
    return stored;
  }

  async function set(key: string, value: string): Promise<void> {
    await db
      .insertInto("settings")
      .values({ key, value })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
      .execute();
  }

  return { get, insertIfAbsent, set };
}
