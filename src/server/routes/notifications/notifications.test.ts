import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../../test/support/fake-push/fake-push-service.js";
import { subscriberKeysFor } from "../../../../test/support/fake-push/keys.js";
import { loadTestTls } from "../../../../test/support/fake-push/test-tls.js";
import { ApiClient, addToken, addUser, errorOf, setUpAdmin } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";
import { readProgressEvents } from "../../../../test/support/sse.js";
import { BUILT_IN_SITE_ID } from "../../../store/sites-repository.js";

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

for (const dialect of DIALECTS) {
  describe(`sends API on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    let publisher: ApiClient;
    let ids: string[];
    const client = () => ({ url: server.url, origin: server.url });
    const sendCount = async () => Number((await server.database.db.selectFrom("notifications").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);

    beforeAll(async () => {
      server = await startTestServer({ dialect, env: ENGINE_ENV });
      admin = await setUpAdmin(client());
      publisher = (await addUser(admin, "publisher")).client;
      ids = await seedSubscriptions(server.database, fake, 20, `${dialect}-api-`);
    });
    afterAll(async () => {
      await server.close();
    });

    it("refuses every sends route without a session or a token (401)", async () => {
      const anonymous = new ApiClient(client());
      const created = await admin.post(NOTIFICATIONS, { title: "Para o teste de acesso", audience: { type: "endpoint", endpoint: fake.endpointFor(ids[0]!) } });
      const id = created.body.notification.id as string;
      await waitForNotification(() => server.delivery.getNotification(Number(id)));
      const attempts = [
        anonymous.post(NOTIFICATIONS, { title: "x" }),
        anonymous.get(NOTIFICATIONS),
        anonymous.get(`${NOTIFICATIONS}/${id}`),
        anonymous.post(`${NOTIFICATIONS}/${id}/cancel`),
        anonymous.get(`${NOTIFICATIONS}/${id}/events`),
        anonymous.get("/api/v1/overview"),
      ];
      for (const res of await Promise.all(attempts)) expect(res).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
      // The quick publish is for scripts: it says which header is missing.
      expect(await anonymous.request("POST", "/p/todos", "oi", { "content-type": "text/plain" })).toMatchObject({ status: 401, body: errorOf("token_missing") });
    });

    it("lets a publisher send to everyone and shows the send reaching completed with every target accepted", async () => {
      fake.reset();
      const res = await publisher.post(NOTIFICATIONS, { title: "Promoção de sábado", body: "Até 18h", url: "/avisos", urgency: "high", ttl: 3600 });
      expect(res.status).toBe(201);
      expect(res.body.notification).toMatchObject({
        id: expect.any(String),
        title: "Promoção de sábado",
        body: "Até 18h",
        url: "/avisos",
        icon: null,
        image: null,
        urgency: "high",
        ttl: 3600,
        audience: { type: "all" },
        status: expect.stringMatching(/^(queued|sending|completed)$/),
        sendAt: null,
        counts: { queued: 20, accepted: expect.any(Number), retrying: 0, failed: 0, removed: 0, limited: 0, asleep: 0 },
      });
      const id = Number(res.body.notification.id);
      const done = await waitForNotification(() => server.delivery.getNotification(id));
      expect(done.counts).toMatchObject({ queued: 20, accepted: 20 });
      const read = await publisher.get(`${NOTIFICATIONS}/${id}`);
      expect(read.body.notification).toMatchObject({ status: "completed", counts: { accepted: 20 }, finishedAt: expect.any(String) });
      expect(fake.stats().log.some((entry) => entry.plaintext?.includes("Promoção de sábado"))).toBe(true);
    });

    it("sends with a publish token, and refuses it once revoked (401 token_revoked)", async () => {
      const { token, secret } = await addToken(admin, "publish");
      const script = new ApiClient(client(), { bearer: secret, origin: null });
      const sent = await script.post(NOTIFICATIONS, { title: "Do script", audience: { type: "endpoint", endpoint: fake.endpointFor(ids[1]!) } });
      expect(sent.status).toBe(201);
      await waitForNotification(() => server.delivery.getNotification(Number(sent.body.notification.id)));
      expect((await admin.delete(`/api/v1/tokens/${token.id}`)).status).toBe(204);
      const refused = await script.post(NOTIFICATIONS, { title: "Depois de revogado" });
      expect(refused).toMatchObject({ status: 401, body: errorOf("token_revoked") });
    });

    it("refuses a cookie-carrying POST from a foreign Origin (CSRF) and stores nothing", async () => {
      const before = await sendCount();
      const res = await publisher.post(NOTIFICATIONS, { title: "Forjado" }, { origin: "https://malicioso.example" });
      expect(res).toMatchObject({ status: 403, body: errorOf("csrf_rejected") });
      const quick = await publisher.request("POST", "/p/todos", "Forjado", { "content-type": "text/plain", origin: "https://malicioso.example" });
      expect(quick).toMatchObject({ status: 403, body: errorOf("csrf_rejected") });
      expect(await sendCount()).toBe(before);
    });

    it("answers validation errors in pt-BR beside their field", async () => {
      const cases: [unknown, string, string | undefined][] = [
        [{ title: "   " }, "title_required", "title"],
        [{ title: "x".repeat(81) }, "title_too_long", "title"],
        [{ title: "ok", body: "y".repeat(301) }, "body_too_long", "body"],
        [{ title: "ok", url: "javascript:alert(1)" }, "link_invalid", "url"],
        [{ title: "ok", icon: "//outro.example/i.png" }, "link_invalid", "icon"],
        [{ title: "ok", image: "http://outro.example/i.png" }, "link_invalid", "image"],
        [{ title: "ok", urgency: "urgentíssima" }, "urgency_invalid", "urgency"],
        [{ title: "ok", ttl: -1 }, "ttl_invalid", "ttl"],
        [{ title: "ok", sendAt: "amanhã" }, "send_at_invalid", "sendAt"],
        [{ title: "ok", sendAt: new Date(Date.now() - 3_600_000).toISOString() }, "send_at_past", "sendAt"],
        [{ title: "ok", sendAt: new Date(Date.now() + 400 * 86_400_000).toISOString() }, "send_at_too_far", "sendAt"],
        [{ title: "ok", audience: { type: "endpoint", endpoint: "https://fcm.googleapis.com/fcm/send/nao-existe" } }, "subscription_not_found", "audience.endpoint"],
      ];
      const before = await sendCount();
      for (const [body, code, field] of cases) {
        const res = await publisher.post(NOTIFICATIONS, body);
        expect({ body, res: res.body }).toEqual({ body, res: errorOf(code, field) });
      }
      expect(await sendCount()).toBe(before);
    });

    it("accepts an http link only on the server's own origin", async () => {
      const res = await publisher.post(NOTIFICATIONS, { title: "Link local", url: "http://localhost:8080/avisos", audience: { type: "endpoint", endpoint: fake.endpointFor(ids[2]!) } });
      expect(res.status).toBe(201);
      await waitForNotification(() => server.delivery.getNotification(Number(res.body.notification.id)));
    });

    it("sends to one browser only with the endpoint audience (send to me)", async () => {
      fake.reset();
      const res = await publisher.post(NOTIFICATIONS, { title: "Só para mim", audience: { type: "endpoint", endpoint: fake.endpointFor(ids[3]!) } });
      expect(res.body.notification).toMatchObject({ audience: { type: "endpoint" }, counts: { queued: 1 } });
      expect(JSON.stringify(res.body)).not.toContain(fake.endpointFor(ids[3]!));
      await waitForNotification(() => server.delivery.getNotification(Number(res.body.notification.id)));
      expect([...fake.stats().acceptedById.keys()]).toEqual([ids[3]]);
    });

    it("honours Idempotency-Key: the same key and body give the same send and answer; another body is 422", async () => {
      const body = { title: "Chave única", audience: { type: "endpoint", endpoint: fake.endpointFor(ids[4]!) } };
      const headers = { "idempotency-key": `k-${dialect}-1` };
      const before = await sendCount();
      const first = await publisher.post(NOTIFICATIONS, body, headers);
      const again = await publisher.post(NOTIFICATIONS, body, headers);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body).toEqual(first.body);
      expect(await sendCount()).toBe(before + 1);

      const other = await publisher.post(NOTIFICATIONS, { ...body, title: "Outro título" }, headers);
      expect(other).toMatchObject({ status: 422, body: errorOf("idempotency_key_reused") });
      // Keys belong to their caller: the admin's same key is another send.
      const admins = await admin.post(NOTIFICATIONS, body, headers);
      expect(admins.body.notification.id).not.toBe(first.body.notification.id);
      expect(await sendCount()).toBe(before + 2);
      expect((await publisher.post(NOTIFICATIONS, body, { "idempotency-key": "tem espaço" })).body).toEqual(errorOf("idempotency_key_invalid"));
    });

    it("gives an Idempotency-Key send the id its service worker reports with, and records those reports", async () => {
      const endpoint = fake.endpointFor(ids[6]!);
      const res = await publisher.post(NOTIFICATIONS, { title: "Com chave e relatório", audience: { type: "endpoint", endpoint } }, { "idempotency-key": `k-${dialect}-events` });
      expect(res.status).toBe(201);
      const id = res.body.notification.id as string;
      await waitForNotification(() => server.delivery.getNotification(Number(id)));
      const delivered = fake.stats().log.find((entry) => entry.id === ids[6] && entry.plaintext?.includes("Com chave e relatório"));
      const payload = JSON.parse(delivered!.plaintext!) as { id?: string };
      expect(payload.id).toBe(id);

      const auth = subscriberKeysFor(fake.keySeed, ids[6]!).auth.toString("base64url");
      const anonymous = new ApiClient(client());
      expect((await anonymous.post("/api/v1/events", { notificationId: payload.id, type: "shown", endpoint, auth })).status).toBe(204);
      const recorded = await server.database.db.selectFrom("notification_events").select("type").where("notification_id", "=", Number(id)).execute();
      expect(recorded.map((row) => row.type)).toEqual(["shown"]);

      // A click is the subscription's last click too (segments' `clique há menos de 7 dias`).
      const lastClick = () => server.database.db.selectFrom("subscriptions").select("last_clicked_at").where("endpoint", "=", endpoint).executeTakeFirstOrThrow();
      expect((await lastClick()).last_clicked_at).toBeNull();
      const before = Date.now();
      expect((await anonymous.post("/api/v1/events", { notificationId: payload.id, type: "clicked", endpoint, auth })).status).toBe(204);
      expect(Number((await lastClick()).last_clicked_at)).toBeGreaterThanOrEqual(before);
    });

    it("makes one send of concurrent requests with the same Idempotency-Key", async () => {
      const body = { title: "Corrida", audience: { type: "endpoint", endpoint: fake.endpointFor(ids[5]!) } };
      const headers = { "idempotency-key": `k-${dialect}-race` };
      const before = await sendCount();
      const answers = await Promise.all(Array.from({ length: 6 }, () => publisher.post(NOTIFICATIONS, body, headers)));
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
      expect(new Set(answers.map((a) => a.body.notification.id)).size).toBe(1);
      expect(await sendCount()).toBe(before + 1);
    });

    it("schedules a send for later and cancels it; a finished send cannot be cancelled (409)", async () => {
      const sendAt = new Date(Date.now() + 3_600_000).toISOString();
      const res = await publisher.post(NOTIFICATIONS, { title: "Mais tarde", sendAt });
      expect(res.body.notification).toMatchObject({ status: "scheduled", sendAt, counts: { queued: 0 } });
      const id = res.body.notification.id as string;
      const jobs = await server.database.db.selectFrom("delivery_jobs").select("id").where("notification_id", "=", Number(id)).execute();
      expect(jobs).toEqual([]);
      const cancelled = await publisher.post(`${NOTIFICATIONS}/${id}/cancel`);
      expect(cancelled).toMatchObject({ status: 200, body: { notification: { id, status: "cancelled" } } });
      expect(await publisher.post(`${NOTIFICATIONS}/${id}/cancel`)).toMatchObject({ status: 409, body: errorOf("send_finished") });
      expect(await publisher.post(`${NOTIFICATIONS}/999999/cancel`)).toMatchObject({ status: 404, body: errorOf("notification_not_found") });
    });

    it("streams the progress as Server-Sent Events until the send is completed", async () => {
      const res = await publisher.post(NOTIFICATIONS, { title: "Ao vivo" });
      const id = res.body.notification.id as string;
      const events = await readProgressEvents(`${server.url}${NOTIFICATIONS}/${id}/events`, { cookie: `${publisher.cookieName}=${publisher.session}` });
      const last = events.at(-1)!;
      expect(last).toMatchObject({ id, status: "completed", counts: { queued: 20, accepted: 20 } });
      const settled = events.map((e) => e.counts.accepted + e.counts.failed + e.counts.removed);
      expect(settled).toEqual([...settled].sort((a, b) => a - b));
    });

    it("lists sends newest first, searchable in title and body, by status, paginated", async () => {
      const tag = `zebra${dialect}`;
      for (const title of [`Primeiro ${tag}`, "Segundo", `Terceiro ${tag.toUpperCase()}`]) {
        await publisher.post(NOTIFICATIONS, { title, body: title === "Segundo" ? `corpo com ${tag}` : "nada", sendAt: new Date(Date.now() + 86_400_000).toISOString() });
      }
      const all = await publisher.get(`${NOTIFICATIONS}?query=${tag}&pageSize=2`);
      expect(all.body).toMatchObject({ total: 3, page: 1, pageSize: 2 });
      expect(all.body.notifications.map((n: { title: string }) => n.title)).toEqual([`Terceiro ${tag.toUpperCase()}`, "Segundo"]);
      const page2 = await publisher.get(`${NOTIFICATIONS}?query=${tag}&pageSize=2&page=2`);
      expect(page2.body.notifications.map((n: { title: string }) => n.title)).toEqual([`Primeiro ${tag}`]);
      const literal = await publisher.get(`${NOTIFICATIONS}?query=${encodeURIComponent("100%")}`);
      expect(literal.body.total).toBe(0);
      const scheduled = await publisher.get(`${NOTIFICATIONS}?status=scheduled&query=${tag}`);
      expect(scheduled.body.total).toBe(3);
    });

    it("gives the overview: subscribers now and the recent sends", async () => {
      const res = await publisher.get("/api/v1/overview");
      expect(res.status).toBe(200);
      expect(res.body.subscribers.total).toBe(20);
      expect(res.body.recentSends.length).toBe(5);
    });

    it("publishes plain text from curl to /p/todos, UTF-8 intact, with the optional headers", async () => {
      const { secret } = await addToken(admin, "publish", "curl");
      const run = (args: string[]) => curl([...args, "-H", `Authorization: Bearer ${secret}`]);
      const simple = await run(["-d", "Backup concluído", `${server.url}/p/todos`]);
      expect(simple.status).toBe(201);
      expect(simple.body.notification).toMatchObject({ title: "Backup concluído", body: null, urgency: "normal", audience: { type: "all" } });

      const full = await run(["-H", "Title: Relatório diário", "-H", "Click: https://exemplo.com.br/relatorio", "-H", "X-Priority: 5", "-d", "Tudo certo às 3h, ação concluída", `${server.url}/p/todos`]);
      expect(full.body.notification).toMatchObject({ title: "Relatório diário", body: "Tudo certo às 3h, ação concluída", url: "https://exemplo.com.br/relatorio", urgency: "high" });

      const unknown = await run(["-d", "x", `${server.url}/p/nao-existe`]);
      expect(unknown.body.error.code).toBe("channel_not_found");
      const badLink = await run(["-H", "Click: javascript:alert(1)", "-d", "x", `${server.url}/p/todos`]);
      expect(badLink.body).toEqual(errorOf("link_invalid", "Click"));
    });

    it("counts the audience a send would reach: everyone, or each subscriber of the chosen channels once", async () => {
      const db = server.database.db;
      const made = await Promise.all([
        admin.post("/api/v1/channels", { slug: "obras", name: "Obras" }),
        admin.post("/api/v1/channels", { slug: "eventos", name: "Eventos" }),
        admin.post("/api/v1/channels", { slug: "antigo", name: "Antigo" }),
      ]);
      const [obras, eventos, antigo] = made.map((res) => Number(res.body.channel.id));
      await admin.patch(`/api/v1/channels/${antigo}`, { archived: true });
      const subs = (await db.selectFrom("subscriptions").select("id").orderBy("id").limit(4).execute()).map((row) => Number(row.id));
      // Three in Obras, two in Eventos, one of them in both: four people.
      const rows = [[subs[0], obras], [subs[1], obras], [subs[2], obras], [subs[2], eventos], [subs[3], eventos]];
      await db.insertInto("subscription_channels").values(rows.map(([subscription, channel]) => ({ subscription_id: subscription!, channel_id: channel! }))).execute();

      expect((await publisher.get("/api/v1/audience")).body).toEqual({ recipients: 20, channels: [], sites: [], limited: 0, asleep: 0 });
      expect((await publisher.get("/api/v1/audience?channels=eventos,obras")).body).toEqual({
        recipients: 4,
        channels: [{ slug: "eventos", name: "Eventos" }, { slug: "obras", name: "Obras" }],
        sites: [],
        limited: 0,
        asleep: 0,
      });
      expect((await publisher.get("/api/v1/audience?channels=obras")).body.recipients).toBe(3);
      expect(await publisher.get("/api/v1/audience?channels=obras,antigo")).toMatchObject({ status: 400, body: errorOf("channel_not_found", "channels") });
      expect(await new ApiClient(client()).get("/api/v1/audience")).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
      await db.deleteFrom("subscription_channels").execute();
    });

    it("counts an audience narrowed to sites exactly as the send with that audience targets, flagged subscriptions left out", async () => {
      const db = server.database.db;
      const [a, b] = await Promise.all(
        ["https://a.exemplo.com.br", "https://b.exemplo.com.br"].map(async (origin) => (await admin.post("/api/v1/sites", { origin })).body.site.id as string),
      );
      const vagas = Number((await admin.post("/api/v1/channels", { slug: "vagas", name: "Vagas" })).body.channel.id);
      const subs = (await db.selectFrom("subscriptions").select("id").orderBy("id").execute()).map((row) => Number(row.id));
      // s0–s5 on A (s0 flagged for a VAPID key mismatch), s6–s9 on B, the other ten on Sino's own; s4–s11 in Vagas.
      await db.updateTable("subscriptions").set({ site_id: Number(a) }).where("id", "in", subs.slice(0, 6)).execute();
      await db.updateTable("subscriptions").set({ site_id: Number(b) }).where("id", "in", subs.slice(6, 10)).execute();
      await db.updateTable("subscriptions").set({ vapid_mismatch_at: Date.now() }).where("id", "=", subs[0]!).execute();
      await db.insertInto("subscription_channels").values(subs.slice(4, 12).map((subscription_id) => ({ subscription_id, channel_id: vagas }))).execute();

      expect((await publisher.get(`/api/v1/audience?channels=vagas&sites=${b},${a}`)).body).toEqual({
        recipients: 6,
        channels: [{ slug: "vagas", name: "Vagas" }],
        sites: [{ id: b, origin: "https://b.exemplo.com.br" }, { id: a, origin: "https://a.exemplo.com.br" }],
        limited: 0,
        asleep: 0,
      });
      const audiences: [string, unknown, number][] = [
        [`sites=${a}`, { type: "all", sites: [a] }, 5],
        [`channels=vagas&sites=${a},${b}`, { type: "channels", channels: ["vagas"], sites: [a, b] }, 6],
        [`sites=${b},${BUILT_IN_SITE_ID}`, { type: "all", sites: [b, String(BUILT_IN_SITE_ID)] }, 14],
      ];
      for (const [query, audience, expected] of audiences) {
        const { recipients } = (await publisher.get(`/api/v1/audience?${query}`)).body as { recipients: number };
        fake.reset();
        const sent = await publisher.post(NOTIFICATIONS, { title: `Público ${query}`, audience });
        const done = await waitForNotification(() => server.delivery.getNotification(Number(sent.body.notification.id)));
        expect({ query, recipients, queued: done.counts.queued, reached: fake.stats().acceptedById.size }).toEqual({ query, recipients: expected, queued: expected, reached: expected });
      }

      expect(await publisher.get("/api/v1/audience?sites=abc")).toMatchObject({ status: 400, body: errorOf("audience_site_not_found", "sites.0") });
      expect(await publisher.get(`/api/v1/audience?sites=${a},999999`)).toMatchObject({ status: 400, body: errorOf("audience_site_not_found", "sites") });
      await db.deleteFrom("subscription_channels").execute();
      await db.updateTable("subscriptions").set({ site_id: BUILT_IN_SITE_ID, vapid_mismatch_at: null }).execute();
    });

    it("tells a curl user what is wrong: no token, a bad token, an empty message (nothing sent)", async () => {
      const { secret } = await addToken(admin, "publish", "curl sem corpo");
      const before = await sendCount();
      const noToken = await curl(["-d", "Backup concluído", `${server.url}/p/todos`]);
      expect(noToken).toEqual({ status: 401, body: errorOf("token_missing") });
      expect(noToken.body.error.message).toContain("Authorization: Bearer");
      for (const header of ["Authorization: Bearer sino_naoexiste", "Authorization: Bearer", "Authorization: Token abc", `Authorization: ${secret}`]) {
        expect(await curl(["-H", header, "-d", "Backup concluído", `${server.url}/p/todos`]), header).toEqual({ status: 401, body: errorOf("token_invalid") });
      }
      const run = (args: string[]) => curl([...args, "-H", `Authorization: Bearer ${secret}`]);
      for (const body of ["", "   ", "\n\n"]) {
        const empty = await run(["--data-binary", body, `${server.url}/p/todos`]);
        expect(empty, JSON.stringify(body)).toEqual({ status: 400, body: errorOf("message_required", "body") });
      }
      expect((await run(["-X", "POST", `${server.url}/p/todos`])).body).toEqual(errorOf("message_required", "body"));
      expect(await sendCount()).toBe(before);
      // A title alone is a message.
      expect((await run(["-H", "Title: Só o título", "-X", "POST", `${server.url}/p/todos`])).status).toBe(201);
    });
  });
}

/** Runs curl as a script would; returns the status and the JSON answer. */
async function curl(args: string[]): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const { execFile } = await import("node:child_process");
  const out = await new Promise<string>((resolve, reject) =>
    execFile("curl", ["-sS", "-w", "\n%{http_code}", ...args], { encoding: "utf8" }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  const cut = out.lastIndexOf("\n");
  return { status: Number(out.slice(cut + 1)), body: JSON.parse(out.slice(0, cut)) };
}

describe("the README's quick publish examples", () => {
  it("work as written, with curl", async () => {
    const { readFileSync } = await import("node:fs");
    const readme = readFileSync("README.md", "utf8");
    const start = readme.indexOf("### Publicação rápida (curl)");
    // Up to the next heading: later sections have curl examples of their own (an import's file upload).
    const section = readme.slice(start, readme.slice(start + 1).search(/\n#{2,3} /) + start + 1);
    const commands = section.split("\n").filter((line) => line.startsWith("curl "));
    expect(commands.length).toBeGreaterThanOrEqual(2);
    const server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
    try {
      const admin = await setUpAdmin({ url: server.url, origin: server.url });
      const { secret } = await addToken(admin, "publish", "readme");
      for (const command of commands) {
        const { execFile } = await import("node:child_process");
        const line = `${command.replaceAll("http://localhost:8080", server.url)} -sS -w '\\n%{http_code}'`;
        const out = await new Promise<string>((resolve, reject) =>
          execFile("sh", ["-c", line], { env: { ...process.env, TOKEN: secret }, encoding: "utf8" }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
        );
        const cut = out.lastIndexOf("\n");
        expect({ command, status: out.slice(cut + 1) }).toEqual({ command, status: "201" });
        expect(JSON.parse(out.slice(0, cut)).notification.title).toMatch(/^(Backup concluído|Servidor principal)$/);
      }
    } finally {
      await server.close();
    }
  });
});

describe("the sends routes' limits and documentation", () => {
  it("limits creating sends per token (429 rate_limited), and documents the routes in the OpenAPI document", async () => {
    const server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false", SINO_PUBLISH_RATE_LIMIT: "2" } });
    try {
      const admin = await setUpAdmin({ url: server.url, origin: server.url });
      const { secret } = await addToken(admin, "publish", "limitado");
      const script = new ApiClient({ url: server.url, origin: server.url }, { bearer: secret, origin: null });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await script.post(NOTIFICATIONS, { title: `n${i}` })).status);
      expect(statuses).toEqual([201, 201, 429]);
      expect((await script.request("POST", "/p/todos", "oi", { "content-type": "text/plain" })).body).toEqual(errorOf("rate_limited"));
      // Another token has its own budget.
      const other = new ApiClient({ url: server.url, origin: server.url }, { bearer: (await addToken(admin, "publish", "outro")).secret, origin: null });
      expect((await other.post(NOTIFICATIONS, { title: "outro" })).status).toBe(201);

      const doc = (await admin.get("/api/v1/openapi.json")).body;
      for (const path of ["/api/v1/notifications", "/api/v1/notifications/{id}", "/api/v1/notifications/{id}/cancel", "/api/v1/notifications/{id}/events", "/api/v1/overview", "/p/{channel}"]) {
        expect(doc.paths[path], path).toBeDefined();
      }
      expect(doc.paths["/api/v1/notifications"].post.requestBody.content["application/json"].schema.properties.title.maxLength).toBe(80);
    } finally {
      await server.close();
    }
  });
});
