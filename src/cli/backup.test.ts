import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";
import { ptBR } from "../shared/i18n/catalog.js";
import { createDatabase } from "../store/database.js";
import { migrateToLatest } from "../store/migrate.js";
import { MIGRATIONS } from "../store/migrations/index.js";
import { runCli } from "./main.js";
import { captureIo } from "../../test/support/cli.js";


/** Runs `sino ARGS` in this process; returns its exit code and what it printed. */
async function sino(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  process.exitCode = undefined;
  const io = captureIo(env);
  await runCli(args, io);
  const code = typeof process.exitCode === "number" ? process.exitCode : 0;
  process.exitCode = undefined;
  return { code, out: io.out.join(""), err: io.err.join("") };
}

const SUBSCRIBERS = 1_500;

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake.close();
});

describe("sino backup and sino restore (SQLite)", { timeout: 120_000 }, () => {
  let dir: string;
  let server: TestServer | undefined;
  let restored: TestServer | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "sino-backup-"));
  });
  afterEach(async () => {
    await server?.close();
    await restored?.close();
    server = restored = undefined;
    fake.reset();
    rmSync(dir, { recursive: true, force: true });
  });

  it("copies a consistent snapshot while a send is going on, and restores it into a server that finishes that send", async () => {
    server = await startTestServer({
      env: { SINO_PUSH_CA_FILE: loadTestTls().caPath, SINO_WORKER_POLL_MS: "50", SINO_WORKER_BATCH: "50", SINO_PUSH_TIMEOUT_MS: "5000" },
    });
    const ids = await seedSubscriptions(server.database, fake, SUBSCRIBERS);
    // Every push is slow, so the lanes keep checkpointing (writing) while the copy is made, and
    // the last subscription is told to come back in an hour: the notification cannot end meanwhile.
    fake.setBehaviour({ latencyMs: 5 });
    fake.setBehaviour({ id: ids[ids.length - 1]!, action: { kind: "status", status: 503, retryAfter: 3600 } });
    const notification = await server.delivery.createNotification({ title: "Durante a cópia" });
    await fake.waitForAccepted(300);

    const copy = join(dir, "copia.db");
    const env = { DATABASE_URL: server.location.url };
    const backup = await sino(["backup", copy], env);
    expect(backup).toMatchObject({ code: 0, err: "" });
    expect(backup.out).toMatch(/^Cópia salva em .*copia\.db \([\d,]+ MB\)\.\n$/);

    // One moment of the database: the notification's counters agree with its recipients' rows, which
    // the lanes write in the same transaction (a copy page by page would mix two moments).
    const snapshot = new SqliteDatabase(copy, { readonly: true });
    const row = snapshot.prepare<[number], { status: string; accepted: number; retrying: number; failed: number; removed: number }>(
      "select status, accepted, retrying, failed, removed from notifications where id = ?",
    ).get(notification.id)!;
    const recipients = snapshot.prepare<[number], { n: number }>("select count(*) as n from notification_recipients where notification_id = ?").get(notification.id)!.n;
    const subscriptions = snapshot.prepare<[], { n: number }>("select count(*) as n from subscriptions").get()!.n;
    expect(snapshot.pragma("integrity_check", { simple: true })).toBe("ok");
    snapshot.close();
    expect(subscriptions).toBe(SUBSCRIBERS);
    // Mid-send: the last subscription cannot be accepted for an hour.
    expect(row.status).toBe("sending");
    expect(row.accepted + row.retrying + row.failed + row.removed).toBe(recipients);
    expect(recipients).toBeGreaterThanOrEqual(300);

    // Restored elsewhere, a new server takes the notification up where the copy left it.
    await server.close();
    server = undefined;
    fake.reset();
    const target = join(dir, "restaurado", "sino.db");
    const restore = await sino(["restore", copy], { DATABASE_URL: target });
    expect(restore).toMatchObject({ code: 0, err: "" });
    expect(restore.out).toContain("Banco de dados restaurado em");
    // As if an hour had passed: the retry the push service asked for is due, and the copied leases
    // of the old server's lanes have run out (a restored send resumes after SINO_LEASE_SECONDS).
    const due = new SqliteDatabase(target);
    due.prepare("update delivery_retries set not_before = 0, lease_until = 0").run();
    due.prepare("update delivery_jobs set lease_until = 0").run();
    due.close();
    restored = await startTestServer({
      location: { dialect: "sqlite", url: target, schema: undefined },
      env: { SINO_PUSH_CA_FILE: loadTestTls().caPath, SINO_WORKER_POLL_MS: "50" },
    });
    const done = await waitForNotification(() => restored!.delivery.getNotification(notification.id), (s) => s.status === "completed");
    expect(done.counts).toMatchObject({ queued: SUBSCRIBERS, accepted: SUBSCRIBERS, failed: 0, removed: 0, retrying: 0 });
  });

  it("refuses to restore over a database in use, even with --force, and over an existing one without it", async () => {
    // A database of the test's own, so it stays after the server stops.
    const location = { dialect: "sqlite" as const, url: join(dir, "sino.db"), schema: undefined };
    server = await startTestServer({ location });
    const copy = join(dir, "copia.db");
    const env = { DATABASE_URL: server.location.url };
    expect((await sino(["backup", copy], env)).code).toBe(0);

    const live = await sino(["restore", copy, "--force"], env);
    expect(live.code).toBe(1);
    expect(live.err).toBe(`Erro: ${ptBR.cli.restore.inUse.replace("{{path}}", server.location.url)}\n`);

    await server.close();
    server = undefined;
    const existing = await sino(["restore", copy], env);
    expect(existing.code).toBe(1);
    expect(existing.err).toContain("Use --force para substituí-lo");
    const forced = await sino(["restore", copy, "--force"], env);
    expect(forced.code).toBe(0);
    expect(existsSync(`${location.url}.restoring`)).toBe(false);
  });

  it("refuses files that are not a Sino database, and copies from a newer Sino", async () => {
    const target = { DATABASE_URL: join(dir, "sino.db") };
    const text = join(dir, "texto.db");
    writeFileSync(text, "isto não é um banco de dados");
    const notSqlite = await sino(["restore", text], target);
    expect(notSqlite).toMatchObject({ code: 1, err: `Erro: ${text} não é um banco de dados do Sino (nem um banco SQLite que o Sino criou).\n` });

    const other = join(dir, "outro.db");
    const plain = new SqliteDatabase(other);
    plain.exec("create table coisas (id integer primary key)");
    plain.close();
    expect((await sino(["restore", other], target)).err).toContain("não é um banco de dados do Sino");

    const newer = join(dir, "nova.db");
    const database = createDatabase({ url: newer });
    await migrateToLatest(database);
    await database.destroy();
    const raw = new SqliteDatabase(newer);
    raw.prepare("insert into kysely_migration (name, timestamp) values (?, ?)").run("9999-from-the-future", new Date().toISOString());
    raw.close();
    const refused = await sino(["restore", newer], target);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("9999-from-the-future");
    expect(existsSync(target.DATABASE_URL)).toBe(false);
    expect(MIGRATIONS.length).toBeGreaterThan(0);
  });

  it("does not overwrite an existing file without --force, and never leaves a partial copy", async () => {
    const source = join(dir, "sino.db");
    const database = createDatabase({ url: source });
    await migrateToLatest(database);
    await database.destroy();
    const copy = join(dir, "copia.db");
    writeFileSync(copy, "antiga");
    const refused = await sino(["backup", copy], { DATABASE_URL: source });
    expect(refused).toMatchObject({ code: 1, err: `Erro: Já existe um arquivo em ${copy}. Escolha outro nome ou use --force para substituí-lo.\n` });
    expect((await sino(["backup", copy, "--force"], { DATABASE_URL: source })).code).toBe(0);
    expect(existsSync(`${copy}.partial`)).toBe(false);
  });

  it("sends PostgreSQL users to pg_dump and pg_restore, saying why", async () => {
    const env = { DATABASE_URL: "postgres://sino@127.0.0.1:5432/sino" };
    const backup = await sino(["backup", join(dir, "x.db")], env);
    expect(backup).toMatchObject({ code: 1, err: `Erro: ${ptBR.cli.backup.postgres}\n` });
    expect(backup.err).toContain("pg_dump");
    const restore = await sino(["restore", join(dir, "x.db")], env);
    expect(restore).toMatchObject({ code: 1, err: `Erro: ${ptBR.cli.restore.postgres}\n` });
  });
});
