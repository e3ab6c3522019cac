/**
 * POST /api/v1/subscribers/import over HTTP, on SQLite and PostgreSQL: admins only (session or
 * admin token), the file streamed as a chunked body, OneSignal's CSV with tags → channels and
 * external_user_id → the person, the size limit (declared and streamed), a site that does not
 * exist, and a format that is none of Sino's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { aFileSubscription, csvCell, ndjsonLine, subscriptionFactory } from "../../../../test/support/import-files.js";
import { ApiClient, addToken, addUser, errorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";

const PATH = "/api/v1/subscribers/import";
const MAX_BYTES = 600_000;

for (const dialect of DIALECTS) {
  describe(`importing subscribers over the API on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com", SINO_IMPORT_MAX_BYTES: String(MAX_BYTES) } });
      admin = await setUpAdmin(server);
      expect((await admin.post("/api/v1/channels", { slug: "esportes", name: "Esportes" })).status).toBe(201);
    });
    afterAll(async () => {
      await server.close();
    });

    /** Sends `body` as the import file with the admin's session (or `headers`' credentials). */
    async function upload(body: BodyInit, query = "", headers: Record<string, string> = {}, client: ApiClient | undefined = admin) {
      const h: Record<string, string> = { "content-type": "application/x-ndjson", origin: server.origin, ...headers };
      if (client?.session !== undefined) h.cookie = `${client.cookieName}=${client.session}`;
      const res = await fetch(`${server.url}${PATH}${query}`, { method: "POST", headers: h, body, ...(body instanceof ReadableStream ? { duplex: "half" } : {}) } as RequestInit);
      const text = await res.text();
      return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
    }
    async function personOf(endpoint: string) {
      const row = await server.database.db.selectFrom("subscriptions").select(["person_id", "id"]).where("endpoint", "=", endpoint).executeTakeFirst();
      return row;
    }

    it("streams a chunked upload of thousands of rows into the database and answers with the summary", async () => {
      const make = subscriptionFactory(32);
      const total = 2000;
      let sent = 0;
      // Chunks that split rows anywhere: the parser must not care where a chunk ends.
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= total) return controller.close();
          const lines = Array.from({ length: 250 }, () => ndjsonLine(make(sent++))).join("\n") + "\n";
          const bytes = new TextEncoder().encode(lines);
          controller.enqueue(bytes.subarray(0, 777));
          controller.enqueue(bytes.subarray(777));
        },
      });
      const res = await upload(stream);
      expect(res.status).toBe(200);
      expect(res.body.summary).toMatchObject({ format: "webpush-json", siteId: "1", dryRun: false, rows: total, imported: total, existing: 0, refused: 0, refusals: [] });
      expect(res.body.summary.rowsPerSecond).toBeGreaterThan(0);
      const again = await upload(Array.from({ length: 10 }, (_, i) => ndjsonLine(make(i))).join("\n"));
      expect(again.body.summary).toMatchObject({ imported: 0, existing: 10 });
    });

    it("reads OneSignal's export with tags as channels and external_user_id as the person", async () => {
      const [a, b] = [aFileSubscription(), aFileSubscription()];
      const csv = [
        "id,identifier,tags,invalid_identifier,external_user_id,web_auth,web_p256",
        ["1", a.endpoint, '{"esportes":"1"}', "f", "cliente-9", a.auth, a.p256dh].map((cell) => csvCell(cell)).join(","),
        ["2", b.endpoint, "", "f", "", b.auth, "curta"].map((cell) => csvCell(cell)).join(","),
      ].join("\n");
      const res = await upload(csv, "?channelsFromTags=true", { "content-type": "text/csv" });
      expect(res.status).toBe(200);
      expect(res.body.summary).toMatchObject({ format: "onesignal-csv", rows: 2, imported: 1, refused: 1, refusals: [{ code: "p256dh_invalid", count: 1, lines: [3] }] });
      const stored = await personOf(a.endpoint);
      expect(stored?.person_id).toBe("cliente-9");
      const channels = await server.database.db
        .selectFrom("subscription_channels")
        .innerJoin("channels", "channels.id", "subscription_channels.channel_id")
        .select("channels.slug")
        .where("subscription_channels.subscription_id", "=", Number(stored!.id))
        .execute();
      expect(channels.map((row) => row.slug)).toEqual(["esportes"]);
      // The person Notify-one-person targets has that subscription.
      const person = await admin.get("/api/v1/people/cliente-9");
      expect(person.status).toBe(200);
    });

    it("is for admins only: a publisher and a publish token get 403, no credentials 401, an admin token imports", async () => {
      const body = ndjsonLine(aFileSubscription());
      const { client: publisher } = await addUser(admin, "publisher");
      expect((await upload(body, "", {}, publisher)).status).toBe(403);
      expect(await upload(body, "", {}, new ApiClient(server))).toMatchObject({ status: 401 });
      const publish = await addToken(admin, "publish");
      expect((await upload(body, "", { authorization: `Bearer ${publish.secret}` }, undefined)).status).toBe(403);
      const adminToken = await addToken(admin, "admin");
      const res = await upload(body, "", { authorization: `Bearer ${adminToken.secret}` }, undefined);
      expect(res.status).toBe(200);
      expect(res.body.summary.imported).toBe(1);
    });

    it("refuses a file over SINO_IMPORT_MAX_BYTES, declared or streamed, an unknown site and an unknown format", async () => {
      const big = Array.from({ length: 3000 }, () => ndjsonLine(aFileSubscription())).join("\n");
      expect(big.length).toBeGreaterThan(MAX_BYTES);
      expect(await upload(big)).toEqual({ status: 413, body: errorOf("import_too_large") });
      const bytes = new TextEncoder().encode(big);
      let offset = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.length) return controller.close();
          controller.enqueue(bytes.subarray(offset, (offset += 16_384)));
        },
      });
      expect(await upload(stream)).toEqual({ status: 413, body: errorOf("import_too_large") });

      expect(await upload(ndjsonLine(aFileSubscription()), "?site=nao-existe")).toEqual({ status: 404, body: errorOf("site_not_found", "site") });
      expect((await upload("a;b\n1;2\n", "", { "content-type": "text/csv" })).body).toEqual(errorOf("import_columns_missing"));
      const unknownFormat = await upload(ndjsonLine(aFileSubscription()), "?format=xml");
      expect(unknownFormat.status).toBe(400);
      expect(unknownFormat.body.error.code).toBe("import_format_unknown");
    });
  });
}
