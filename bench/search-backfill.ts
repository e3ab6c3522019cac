/**
 * How long migration 0009-accounts takes to fold existing rows: N subscriptions with a person id
 * and N/10 sends, on a fresh SQLite file or PostgreSQL schema migrated to 0008 first.
 *
 *   npx tsx bench/search-backfill.ts --db sqlite|postgres --subs 100000
 */
import { Migrator, sql, type Kysely, type Migration } from "kysely";
import { parseArgs } from "node:util";
import { createTestDatabaseLocation, openTestDatabase } from "../test/support/db.js";
import type { Dialect } from "../src/store/database.js";
import { migrateToLatest } from "../src/store/migrate.js";
import { MIGRATIONS } from "../src/store/migrations/index.js";

const { values } = parseArgs({ options: { db: { type: "string", default: "sqlite" }, subs: { type: "string", default: "100000" } } });
const dialect = values.db as Dialect;
const subs = Number(values.subs);

const { location, drop } = await createTestDatabaseLocation(dialect);
const database = openTestDatabase(location);
try {
  const before = MIGRATIONS.slice(0, MIGRATIONS.findIndex(([name]) => name === "0009-accounts"));
  const migrator = new Migrator({
    db: database.db as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => Object.fromEntries(before.map(([name, m]): [string, Migration] => [name, { up: (db) => m.up(db, dialect) }])) },
    ...(database.schema === undefined ? {} : { migrationTableSchema: database.schema }),
  });
  const { error } = await migrator.migrateToLatest();
  if (error !== undefined) throw error;
  for (let from = 0; from < subs; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, subs - from) }, (_, i) => from + i);
    await sql`insert into subscriptions (endpoint, p256dh, auth, created_at, updated_at, last_seen_at, person_id)
      values ${sql.join(rows.map((n) => sql`(${`https://push.example.com/${n}`}, ${"k"}, ${"a"}, ${0}, ${0}, ${0}, ${`João-${n}`})`))}`.execute(database.db);
  }
  const sends = Math.ceil(subs / 10);
  for (let from = 0; from < sends; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, sends - from) }, (_, i) => from + i);
    await sql`insert into notifications (title, body, tag, ttl_seconds, audience, payload, status, created_at, expires_at, queued)
      values ${sql.join(rows.map((n) => sql`(${`Manutenção ${n}`}, ${"Às 18h"}, ${"t"}, ${60}, ${'{"kind":"everyone"}'}, ${"{}"}, ${"completed"}, ${n}, ${n}, ${0})`))}`.execute(database.db);
  }
  const started = performance.now();
  await migrateToLatest(database);
  const ms = performance.now() - started;
  console.log(JSON.stringify({ dialect, subscriptions: subs, sends, migrationMs: Math.round(ms) }));
} finally {
  await database.destroy();
  await drop();
}
