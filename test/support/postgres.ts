/** Where the tests find PostgreSQL; `TEST_DATABASE_URL` points them elsewhere. */
export function testDatabaseUrl(): string {
  return process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
}

export const POSTGRES_HELP =
  "Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start " +
  "(or point TEST_DATABASE_URL at a reachable server). The storage tests run on SQLite AND " +
  "PostgreSQL; they are never skipped.";
