/**
 * Importing subscribers, on SQLite and PostgreSQL: each format (web-push NDJSON and JSON array,
 * CSV with named columns, OneSignal's CSV export, gzipped), the registration's checks on every
 * row with the refusals by reason and line, re-running the same file, the site's VAPID key and
 * cap, channels from a column or from OneSignal tags, user ids, and a dry run.
 */
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_ENDPOINT_POLICY } from "../../push/endpoint-policy.js";
import type { ImportSummary } from "../../shared/api/import.js";
import { createChannelsRepository } from "../../store/channels-repository.js";
import { createSitesRepository } from "../../store/sites-repository.js";
import { createSubscriptionImportRepository } from "../../store/subscription-import-repository.js";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../../test/support/db.js";
import { aFileSubscription, anOffCurveKey, csvCell, ndjsonLine, subscriptionFactory, type FileSubscription } from "../../../test/support/import-files.js";
import { ImportError } from "./import-error.js";
import { resolveImportSite } from "./import-site.js";
import { runImport, type ImportRequest } from "./run-import.js";

for (const dialect of DIALECTS) {
  describe(`importing subscribers on ${dialect}`, () => {
    let database: TestDatabase;
    const now = Date.UTC(2026, 10, 26, 12);

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const channels = createChannelsRepository(database);
      await channels.create({ slug: "geral", name: "Geral", description: null, isDefault: true }, now);
      await channels.create({ slug: "esportes", name: "Esportes", description: null, isDefault: false }, now);
      await channels.create({ slug: "politica", name: "Política", description: null, isDefault: false }, now);
    });
    afterAll(async () => {
      await database.cleanup();
    });
    beforeEach(async () => {
      await database.db.deleteFrom("subscription_channels").execute();
      await database.db.deleteFrom("subscriptions").execute();
    });

    function deps() {
      return {
        repository: createSubscriptionImportRepository(database),
        endpointPolicy: DEFAULT_ENDPOINT_POLICY,
        maxChannelsPerSubscription: 2,
        maxBytes: 10 * 1024 * 1024,
        now: () => now,
      };
    }
    async function importText(text: string | Buffer, options: Partial<ImportRequest> & { siteName?: string } = {}): Promise<ImportSummary> {
      const site = await resolveImportSite(createSitesRepository(database), options.siteName, 1_000_000);
      return runImport(deps(), { source: [typeof text === "string" ? Buffer.from(text) : text], site, ...options });
    }
    async function rowOf(endpoint: string) {
      return database.db.selectFrom("subscriptions").selectAll().where("endpoint", "=", endpoint).executeTakeFirst();
    }
    async function channelsOf(endpoint: string): Promise<string[]> {
      const rows = await database.db
        .selectFrom("subscription_channels")
        .innerJoin("subscriptions", "subscriptions.id", "subscription_channels.subscription_id")
        .innerJoin("channels", "channels.id", "subscription_channels.channel_id")
        .select("channels.slug")
        .where("subscriptions.endpoint", "=", endpoint)
        .orderBy("channels.slug")
        .execute();
      return rows.map((row) => row.slug);
    }
    async function count(): Promise<number> {
      const row = await database.db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    }

    it("imports web-push NDJSON, refusing each bad row by reason with its line, and stores nothing twice on a re-run", async () => {
      const good = [aFileSubscription(), aFileSubscription(), aFileSubscription()];
      const lines = [
        ndjsonLine(good[0]!),
        "{ not json",
        ndjsonLine({ ...aFileSubscription(), endpoint: "http://fcm.googleapis.com/fcm/send/x" }),
        ndjsonLine(good[1]!, { userId: "cliente-42", timeZone: "America/Sao_Paulo" }),
        JSON.stringify({ endpoint: "https://fcm.googleapis.com/fcm/send/sem-chaves" }),
        ndjsonLine({ ...aFileSubscription(), p256dh: anOffCurveKey() }),
        "",
        ndjsonLine({ ...aFileSubscription(), auth: "curto" }),
        ndjsonLine({ ...aFileSubscription(), endpoint: "https://push.example.net/x" }),
        ndjsonLine(good[2]!),
        ndjsonLine(good[0]!),
        ndjsonLine({ ...good[1]!, auth: aFileSubscription().auth }),
      ];
      const summary = await importText(lines.join("\n") + "\n");
      expect(summary).toMatchObject({ format: "webpush-json", dryRun: false, rows: 11, imported: 3, existing: 1, refused: 7 });
      expect(summary.refusals).toEqual(
        expect.arrayContaining([
          { code: "import_row_invalid", count: 1, lines: [2] },
          { code: "endpoint_not_https", count: 1, lines: [3] },
          { code: "import_field_missing", count: 1, lines: [5] },
          { code: "p256dh_off_curve", count: 1, lines: [6] },
          { code: "auth_invalid", count: 1, lines: [8] },
          { code: "endpoint_host_not_allowed", count: 1, lines: [9] },
          { code: "subscription_auth_mismatch", count: 1, lines: [12] },
        ]),
      );
      expect(summary.refusals).toHaveLength(7);
      expect(await count()).toBe(3);
      const identified = await rowOf(good[1]!.endpoint);
      expect(identified).toMatchObject({ person_id: "cliente-42", time_zone: "America/Sao_Paulo", auth: good[1]!.auth, p256dh: good[1]!.p256dh, vapid_key_id: null });
      expect(Number(identified!.site_id)).toBe(1);
      expect(await channelsOf(good[0]!.endpoint)).toEqual(["geral"]);

      const again = await importText(lines.join("\n"));
      expect(again).toMatchObject({ rows: 11, imported: 0, existing: 4, refused: 7 });
      expect(await count()).toBe(3);
      expect(await channelsOf(good[0]!.endpoint)).toEqual(["geral"]);
    });

    it("streams a pretty-printed JSON array, reporting the line each element starts on", async () => {
      const good = [aFileSubscription(), aFileSubscription()];
      const entries = [good[0]!, { ...aFileSubscription(), p256dh: "não-base64" }, good[1]!].map((s) => ({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }));
      const text = JSON.stringify(entries, null, 2);
      // Element 2 starts on line 9 of the two-space layout ("[" then 7 lines per element).
      const summary = await importText(text);
      expect(summary).toMatchObject({ format: "webpush-json", rows: 3, imported: 2, refused: 1 });
      expect(summary.refusals).toEqual([{ code: "p256dh_invalid", count: 1, lines: [9] }]);
      expect(await count()).toBe(2);
    });

    it("refuses the unfinished last element of a truncated JSON array and keeps the rows before it", async () => {
      const one = aFileSubscription();
      const text = `[\n${ndjsonLine(one)},\n{"endpoint": "https://fcm.googleapis.com/fcm/send/corta`;
      const summary = await importText(text);
      expect(summary).toMatchObject({ rows: 2, imported: 1, refused: 1, refusals: [{ code: "import_row_invalid", count: 1, lines: [3] }] });
    });

    it("imports a CSV with named columns (semicolons, quotes, channels, user id, creation time), gzipped", async () => {
      const [a, b, c, d] = [aFileSubscription(), aFileSubscription(), aFileSubscription(), aFileSubscription()];
      const row = (s: FileSubscription, rest: string[]) => [s.endpoint, s.p256dh, s.auth, ...rest].map((cell) => csvCell(cell, ";")).join(";");
      const csv = [
        "endpoint;p256dh;auth;user_id;channels;time_zone;created_at",
        row(a, ["ana@exemplo", "esportes politica", "America/Recife", "2024-02-01T10:00:00Z"]),
        row(b, ["", "", "Não/Existe", "1700000000"]),
        row(c, ["", "futebol", "", ""]),
        row(d, ["", "geral;esportes;politica", "", ""]),
        "so;duas",
      ].join("\r\n");
      const summary = await importText(gzipSync(Buffer.from(csv)));
      expect(summary).toMatchObject({ format: "csv", rows: 5, imported: 2, refused: 3 });
      expect(summary.refusals).toEqual(
        expect.arrayContaining([
          { code: "channel_not_found", count: 1, lines: [4] },
          { code: "too_many_channels", count: 1, lines: [5] },
          { code: "import_row_invalid", count: 1, lines: [6] },
        ]),
      );
      expect(await channelsOf(a.endpoint)).toEqual(["esportes", "politica"]);
      expect(await channelsOf(b.endpoint)).toEqual(["geral"]);
      const stored = await rowOf(a.endpoint);
      expect(stored).toMatchObject({ person_id: "ana@exemplo", time_zone: "America/Recife" });
      expect(Number(stored!.created_at)).toBe(Date.parse("2024-02-01T10:00:00Z"));
      const unzoned = await rowOf(b.endpoint);
      expect(unzoned!.time_zone).toBeNull();
      expect(Number(unzoned!.created_at)).toBe(1_700_000_000_000);
    });

    it("refuses a CSV whose header lacks the key columns, and a file in no known format", async () => {
      await expect(importText("endpoint,chave\nx,y\n")).rejects.toEqual(new ImportError("import_columns_missing"));
      await expect(importText("   \n")).rejects.toEqual(new ImportError("import_format_unknown"));
      await expect(importText("endpoint,p256dh,auth\n", { format: "webpush-json" })).rejects.toEqual(new ImportError("import_format_unknown"));
      expect(await count()).toBe(0);
    });

    it("reads OneSignal's CSV export: tags to channels when asked, external_user_id to the person, unsubscribed devices refused", async () => {
      const [a, b, c] = [aFileSubscription(), aFileSubscription(), aFileSubscription()];
      const header = "id,identifier,session_count,language,timezone,device_os,device_type,device_model,tags,last_active,created_at,invalid_identifier,badge_count,external_user_id,web_auth,web_p256";
      const line = (s: FileSubscription, tags: string, invalid: string, user: string) =>
        ["5d8e-1", s.endpoint, "3", "pt", "-10800", "120", "5", "Linux x86_64", tags, "2026-11-01 09:00:00 UTC", "2025-03-10 12:00:00 UTC", invalid, "0", user, s.auth, s.p256dh].map((cell) => csvCell(cell)).join(",");
      const csv = [header, line(a, '{"esportes":"1","newsletter":"1","politica":"0"}', "f", "leitor-7"), line(b, "", "f", ""), line(c, '{"esportes":"1"}', "t", "")].join("\n") + "\n";

      const summary = await importText(csv, { channelsFromTags: true });
      expect(summary).toMatchObject({ format: "onesignal-csv", rows: 3, imported: 2, refused: 1, refusals: [{ code: "import_unsubscribed", count: 1, lines: [4] }] });
      expect(await channelsOf(a.endpoint)).toEqual(["esportes"]);
      expect(await channelsOf(b.endpoint)).toEqual(["geral"]);
      const stored = await rowOf(a.endpoint);
      expect(stored).toMatchObject({ person_id: "leitor-7", p256dh: a.p256dh, auth: a.auth });
      expect(Number(stored!.created_at)).toBe(Date.parse("2025-03-10T12:00:00Z"));
      expect(Number(stored!.last_visit_at)).toBe(Date.parse("2026-11-01T09:00:00Z"));
      // The person the "Notify one person" send targets.
      const person = await database.db.selectFrom("subscriptions").select("endpoint").where("person_id", "=", "leitor-7").execute();
      expect(person.map((row) => row.endpoint)).toEqual([a.endpoint]);
    });

    it("leaves OneSignal's tags alone unless asked: the default channels", async () => {
      const a = aFileSubscription();
      const csv = `identifier,web_p256,web_auth,tags\n${a.endpoint},${a.p256dh},${a.auth},${csvCell('{"esportes":"1"}')}\n`;
      expect(await importText(csv)).toMatchObject({ format: "onesignal-csv", imported: 1 });
      expect(await channelsOf(a.endpoint)).toEqual(["geral"]);
    });

    it("gives imported rows the target site and its VAPID key, and stops new ones at the site's cap", async () => {
      const sites = createSitesRepository(database);
      const site = await sites.create(`https://loja-${dialect}.exemplo.com.br`, now);
      if (site === "origin_taken") throw new Error("site exists");
      const key = await database.db
        .insertInto("vapid_keys")
        .values({ public_key: "BPublic", private_key: "private", source: "imported", created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await database.db.updateTable("sites").set({ vapid_key_id: Number(key.id) }).where("id", "=", site.id).execute();

      const subscriptions = [aFileSubscription(), aFileSubscription(), aFileSubscription()];
      const text = subscriptions.map((s) => ndjsonLine(s)).join("\n");
      const target = await resolveImportSite(sites, new URL(site.origin!).host, 2);
      const summary = await runImport(deps(), { source: [Buffer.from(text)], site: target });
      expect(summary).toMatchObject({ siteId: String(site.id), imported: 2, refused: 1, refusals: [{ code: "site_subscription_cap", count: 1, lines: [3] }] });
      const stored = await rowOf(subscriptions[0]!.endpoint);
      expect(Number(stored!.site_id)).toBe(site.id);
      expect(Number(stored!.vapid_key_id)).toBe(Number(key.id));
      await expect(resolveImportSite(sites, "nao-existe", 2)).rejects.toEqual(new ImportError("site_not_found"));
    });

    it("checks and counts in a dry run without storing anything", async () => {
      const known = aFileSubscription();
      await importText(ndjsonLine(known));
      const text = [ndjsonLine(known), ndjsonLine(aFileSubscription()), ndjsonLine(aFileSubscription()), "[]"].join("\n");
      const summary = await importText(text, { dryRun: true });
      expect(summary).toMatchObject({ dryRun: true, rows: 4, imported: 2, existing: 1, refused: 1 });
      expect(await count()).toBe(1);
    });

    it("stops at the size limit, counting the decompressed bytes", async () => {
      const big = Array.from({ length: 200 }, () => ndjsonLine(aFileSubscription())).join("\n");
      const small = { ...deps(), maxBytes: 4096 };
      const site = await resolveImportSite(createSitesRepository(database), undefined, 0);
      await expect(runImport(small, { source: [gzipSync(Buffer.from(big))], site })).rejects.toEqual(new ImportError("import_too_large"));
      const csv = ["endpoint,p256dh,auth", ...Array.from({ length: 200 }, () => Object.values(aFileSubscription()).join(","))].join("\n");
      await expect(runImport(small, { source: [Buffer.from(csv)], site, format: "csv" })).rejects.toEqual(new ImportError("import_too_large"));
      await expect(runImport(small, { source: [gzipSync(Buffer.from(csv)).subarray(0, 300)], site })).rejects.toEqual(new ImportError("import_format_unknown"));
    });
  });
}

describe("a large import's memory", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await database.cleanup();
  });

  // Not a timing: what the heap still holds after a full collection, early in the file and at its
  // end. An import that kept its rows (or their outcomes) would hold tens of MB more at the end.
  it("stays flat: the heap retained after 80,000 rows is what it was after 10,000", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const make = subscriptionFactory(64);
    const rows = 80_000;
    async function* file(): AsyncGenerator<Buffer> {
      for (let i = 0; i < rows; i += 500) yield Buffer.from(Array.from({ length: 500 }, (_, j) => ndjsonLine(make(i + j))).join("\n") + "\n");
    }
    const retained = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    let early = 0;
    let late = 0;
    const site = await resolveImportSite(createSitesRepository(database), undefined, 0);
    const summary = await runImport(
      { repository: createSubscriptionImportRepository(database), endpointPolicy: DEFAULT_ENDPOINT_POLICY, maxChannelsPerSubscription: 20, maxBytes: 1024 ** 3, now: Date.now },
      {
        source: file(),
        site,
        onProgress: ({ rows: done }) => {
          if (done === 10_000) early = retained();
          if (done === rows) late = retained();
        },
      },
    );
    expect(summary).toMatchObject({ rows, imported: rows, refused: 0 });
    expect(early).toBeGreaterThan(0);
    expect(late - early).toBeLessThan(12 * 1024 * 1024);
  }, 300_000);
});
