import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../../../test/support/fake-push/test-tls.js";
import { ApiClient, addToken, errorOf, setUpAdmin } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";

const NOTIFICATIONS = "/api/v1/notifications";
const ENGINE_ENV = {
  SINO_PUSH_CA_FILE: loadTestTls().caPath,
  SINO_WORKER_POLL_MS: "50",
  SINO_ENCRYPTION_THREADS: "1",
  SINO_PUSH_TIMEOUT_MS: "5000",
};

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService({ decryptSample: 1 });
});
afterAll(async () => {
  await fake.close();
});

/** What each fake subscription received, decrypted: fake id → the payloads' JSON. */
function receivedById(): Map<string, { title: string; body?: string; url?: string; tag: string }[]> {
  const byId = new Map<string, { title: string; body?: string; url?: string; tag: string }[]>();
  for (const entry of fake.stats().log) {
    if (entry.plaintext === undefined) continue;
    const list = byId.get(entry.id) ?? [];
    list.push(JSON.parse(entry.plaintext) as { title: string; tag: string });
    byId.set(entry.id, list);
  }
  return byId;
}

for (const dialect of DIALECTS) {
  describe(`sends to people on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    let script: ApiClient;
    let fakeIds: string[];
    let siteA: string;
    const client = () => ({ url: server.url, origin: server.url });
    const sendCount = async () => Number((await server.database.db.selectFrom("notifications").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    const finished = (id: string) => waitForNotification(() => server.delivery.getNotification(Number(id)));

    /**
     * 10 subscriptions: ana has s0 (Sino's own site) and s1 (site A); bia has s2 (site A); "Ana"
     * (another person: ids are case-sensitive) has s3; s4–s9 are anonymous.
     */
    beforeAll(async () => {
      server = await startTestServer({ dialect, env: ENGINE_ENV });
      admin = await setUpAdmin(client());
      script = new ApiClient(client(), { bearer: (await addToken(admin, "publish")).secret, origin: null });
      fakeIds = await seedSubscriptions(server.database, fake, 10, `${dialect}-people-`);
      siteA = (await admin.post("/api/v1/sites", { origin: "https://loja.exemplo.com.br" })).body.site.id as string;
      const rows = await server.database.db.selectFrom("subscriptions").select("id").orderBy("id").execute();
      const set = (index: number, person: string, site?: string) =>
        server.database.db
          .updateTable("subscriptions")
          .set({ person_id: person, identified_at: Date.now(), ...(site === undefined ? {} : { site_id: Number(site) }) })
          .where("id", "=", Number(rows[index]!.id))
          .execute();
      await set(0, "ana");
      await set(1, "ana", siteA);
      await set(2, "bia", siteA);
      await set(3, "Ana");
    });
    afterAll(async () => {
      await server.close();
    });
    beforeEach(() => {
      fake.reset();
    });

    it("reaches every subscription of each person on every site and no one else, counting repeated ids once", async () => {
      const res = await script.post(NOTIFICATIONS, { title: "Seu pedido saiu para entrega", audience: { type: "users", users: ["ana", "ana", { id: "zé" }, "bia"] } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        notification: { audience: { type: "users", users: 3 }, category: "marketing", collapseKey: null, counts: { queued: 3 } },
        targeted: 3,
        usersWithoutSubscriptions: ["zé"],
      });
      const done = await finished(res.body.notification.id);
      expect(done.counts).toMatchObject({ queued: 3, accepted: 3, failed: 0 });
      expect([...fake.stats().acceptedById.keys()].sort()).toEqual([fakeIds[0], fakeIds[1], fakeIds[2]].sort());
      const stored = await server.database.db.selectFrom("notification_people").select("person_id").where("notification_id", "=", Number(res.body.notification.id)).execute();
      expect(stored.map((row) => row.person_id).sort()).toEqual(["ana", "bia", "zé"]);
    });

    it("keeps a send to people off the public Avisos unless it asks to be public", async () => {
      const personal = await script.post(NOTIFICATIONS, { title: "Sua consulta é amanhã", audience: { type: "users", users: ["ana"] } });
      const shared = await script.post(NOTIFICATIONS, { title: "Aviso a estes clientes", audience: { type: "users", users: ["bia"] }, notice: "public" });
      const everyone = await script.post(NOTIFICATIONS, { title: "Aviso a todos" });
      expect([personal.body.notification.notice, shared.body.notification.notice, everyone.body.notification.notice]).toEqual(["hidden", "public", "public"]);
      for (const res of [personal, shared, everyone]) await finished(res.body.notification.id);
      const titles = ((await admin.get("/api/v1/notices")).body.notices as { title: string }[]).map((notice) => notice.title);
      expect(titles).toContain("Aviso a estes clientes");
      expect(titles).toContain("Aviso a todos");
      expect(titles).not.toContain("Sua consulta é amanhã");
    });

    it("narrows people to the sites chosen, and GET /audience counts the same", async () => {
      const res = await script.post(NOTIFICATIONS, { title: "Só no site A", audience: { type: "users", users: ["ana", "Ana"], sites: [siteA] } });
      expect(res.body).toMatchObject({ targeted: 1, usersWithoutSubscriptions: ["Ana"], notification: { audience: { type: "users", users: 2, sites: [siteA] } } });
      await finished(res.body.notification.id);
      expect([...fake.stats().acceptedById.keys()]).toEqual([fakeIds[1]]);
      const size = await admin.get(`/api/v1/audience?users=ana&users=Ana&sites=${siteA}`);
      expect(size.body).toMatchObject({ recipients: 1, people: 2 });
      expect((await admin.get("/api/v1/audience?users=ana&users=bia&users=ana")).body).toMatchObject({ recipients: 3, people: 2 });
      expect((await admin.get("/api/v1/audience?users=%20ana")).body).toEqual(errorOf("user_id_invalid", "users"));
    });

    it("fills each person's placeholders and each browser decrypts its own person's text, with link values escaped", async () => {
      const res = await script.post(NOTIFICATIONS, {
        title: "Olá, {{ nome }}",
        body: "Pedido #{{pedido}} a caminho",
        url: "https://loja.exemplo.com.br/pedidos/{{pedido}}",
        audience: {
          type: "users",
          users: [
            { id: "ana", data: { nome: "Ana", pedido: 4821 } },
            { id: "bia", data: { nome: "Bia Souza", pedido: "a/b c&d" } },
          ],
        },
      });
      expect(res.status).toBe(201);
      // What the API shows is the template; what each person gets is their copy.
      expect(res.body.notification).toMatchObject({ title: "Olá, {{ nome }}", url: "https://loja.exemplo.com.br/pedidos/{{pedido}}" });
      await finished(res.body.notification.id);
      const received = receivedById();
      for (const id of [fakeIds[0]!, fakeIds[1]!]) {
        expect(received.get(id)).toEqual([expect.objectContaining({ title: "Olá, Ana", body: "Pedido #4821 a caminho", url: "https://loja.exemplo.com.br/pedidos/4821" })]);
      }
      expect(received.get(fakeIds[2]!)).toEqual([
        expect.objectContaining({ title: "Olá, Bia Souza", body: "Pedido #a/b c&d a caminho", url: "https://loja.exemplo.com.br/pedidos/a%2Fb%20c%26d" }),
      ]);
      expect(received.size).toBe(3);
    });

    it("refuses a placeholder some person has no value for, naming it, and stores nothing", async () => {
      const before = await sendCount();
      const missing = await script.post(NOTIFICATIONS, {
        title: "Olá, {{nome}}",
        body: "Pedido {{pedido}}",
        audience: { type: "users", users: [{ id: "ana", data: { nome: "Ana", pedido: "1" } }, { id: "bia", data: { nome: "Bia" } }] },
      });
      expect(missing).toMatchObject({ status: 400, body: errorOf("placeholder_missing", "pedido") });
      const noData = await script.post(NOTIFICATIONS, { title: "Olá, {{nome}}", audience: { type: "users", users: ["ana"] } });
      expect(noData).toMatchObject({ status: 400, body: errorOf("placeholder_missing", "nome") });
      // Limits hold for every person's copy.
      const long = await script.post(NOTIFICATIONS, { title: "Olá, {{nome}}", audience: { type: "users", users: [{ id: "ana", data: { nome: "x".repeat(80) } }] } });
      expect(long).toMatchObject({ status: 400, body: errorOf("title_too_long", "title") });
      const huge = await script.post(NOTIFICATIONS, {
        title: "Oi",
        body: "{{a}}{{b}}{{c}}{{d}}",
        audience: { type: "users", users: [{ id: "ana", data: { a: "é".repeat(76), b: "é".repeat(76), c: "é".repeat(76), d: "é".repeat(76) } }] },
      });
      expect(huge).toMatchObject({ status: 400, body: errorOf("body_too_long", "body") });
      expect(await sendCount()).toBe(before);
    });

    it("refuses placeholders outside a send to people (400 placeholder_not_allowed)", async () => {
      const before = await sendCount();
      const res = await script.post(NOTIFICATIONS, { title: "Olá, {{nome}}" });
      expect(res).toMatchObject({ status: 400, body: errorOf("placeholder_not_allowed", "title") });
      expect(await sendCount()).toBe(before);
    });

    it("refuses malformed ids, too many or too few, and bad or oversized data", async () => {
      const before = await sendCount();
      const users = (list: unknown) => script.post(NOTIFICATIONS, { title: "x", audience: { type: "users", users: list } });
      const tooMany = Array.from({ length: 10_001 }, (_, i) => `p${i}`);
      expect(await users(tooMany)).toMatchObject({ status: 400, body: { error: { code: "too_many_users" } } });
      expect(await users([])).toMatchObject({ status: 400, body: { error: { code: "too_many_users" } } });
      for (const bad of [" ana", "ana ", "", "a".repeat(129), "a\u0007b", "a\u2028b", "a\u0085b", 42]) {
        expect(await users(["ok", bad]), JSON.stringify(bad)).toMatchObject({ status: 400, body: { error: { code: "user_id_invalid", field: "audience.users.1" } } });
      }
      expect(await users([{ id: "ana", data: { nome: "x".repeat(1_100) } }])).toMatchObject({ status: 400, body: { error: { code: "user_data_too_large" } } });
      expect(await users([{ id: "ana", data: { nome: { nested: true } } }])).toMatchObject({ status: 400, body: { error: { code: "user_data_invalid" } } });
      expect(await sendCount()).toBe(before);
      // 10,000 is the limit, not an error.
      const exactly = await users(Array.from({ length: 10_000 }, (_, i) => (i === 0 ? "ana" : `p${i}`)));
      expect(exactly.body).toMatchObject({ targeted: 2 });
      expect(exactly.body.usersWithoutSubscriptions).toHaveLength(9_999);
      await finished(exactly.body.notification.id);
    });

    it("allows transactional only to people or one browser, and stores and shows the category", async () => {
      const before = await sendCount();
      expect(await script.post(NOTIFICATIONS, { title: "x", category: "transactional" })).toMatchObject({ status: 400, body: errorOf("transactional_audience", "category") });
      expect(await script.post(NOTIFICATIONS, { title: "x", category: "promocional", audience: { type: "users", users: ["ana"] } })).toMatchObject({
        status: 400,
        body: errorOf("category_invalid", "category"),
      });
      expect(await sendCount()).toBe(before);
      const res = await script.post(NOTIFICATIONS, { title: "Sua consulta é amanhã", category: "transactional", audience: { type: "users", users: ["bia"] } });
      expect(res.status).toBe(201);
      await finished(res.body.notification.id);
      expect((await admin.get(`${NOTIFICATIONS}/${res.body.notification.id}`)).body.notification).toMatchObject({ category: "transactional", audience: { type: "users", users: 1 } });
      const row = await server.database.db.selectFrom("notifications").select(["category"]).where("id", "=", Number(res.body.notification.id)).executeTakeFirstOrThrow();
      expect(row.category).toBe("transactional");
    });

    it("sends a collapse key as the tag and as the hashed RFC 8030 Topic", async () => {
      const res = await script.post(NOTIFICATIONS, { title: "Pedido #4821 enviado", collapseKey: "pedido-4821", audience: { type: "users", users: ["bia"] } });
      expect(res.body.notification.collapseKey).toBe("pedido-4821");
      await finished(res.body.notification.id);
      const topic = createHash("sha256").update("pedido-4821").digest("base64url").slice(0, 32);
      const [entry] = fake.stats().log;
      expect(entry).toMatchObject({ id: fakeIds[2], topic });
      expect(JSON.parse(entry!.plaintext!)).toMatchObject({ tag: "pedido-4821" });
      expect(await script.post(NOTIFICATIONS, { title: "x", collapseKey: "k".repeat(65) })).toMatchObject({ status: 400, body: errorOf("collapse_key_invalid", "collapseKey") });
    });

    it("replays a users send's whole answer for the same Idempotency-Key", async () => {
      const body = { title: "Uma vez só", audience: { type: "users", users: ["ana", "ninguém"] } };
      const first = await script.post(NOTIFICATIONS, body, { "idempotency-key": `people-${dialect}` });
      const again = await script.post(NOTIFICATIONS, body, { "idempotency-key": `people-${dialect}` });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(first.body).toMatchObject({ targeted: 2, usersWithoutSubscriptions: ["ninguém"] });
      await finished(first.body.notification.id);
    });

    it("quick publish sends to X-User people with X-Category", async () => {
      const res = await script.request("POST", "/p/todos", "Sua senha foi alterada", { "content-type": "text/plain", "x-user": "ana, zé", "x-category": "transactional" });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ targeted: 2, usersWithoutSubscriptions: ["zé"], notification: { category: "transactional", audience: { type: "users", users: 2 } } });
      await finished(res.body.notification.id);
      expect([...fake.stats().acceptedById.keys()].sort()).toEqual([fakeIds[0], fakeIds[1]].sort());
      expect(await script.request("POST", "/p/todos", "Oi", { "content-type": "text/plain", "x-category": "transactional" })).toMatchObject({
        status: 400,
        body: errorOf("transactional_audience", "category"),
      });
      expect(await script.request("POST", "/p/obras", "Oi", { "content-type": "text/plain", "x-user": "ana" })).toMatchObject({ status: 400, body: errorOf("validation_failed", "X-User") });
    });
  });
}
