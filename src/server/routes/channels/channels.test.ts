/**
 * Channels over HTTP, on SQLite and PostgreSQL: channels (admin), the subscriber's choice with proof
 * of possession and its limit, default channels and rotation (`previous`), events counted once,
 * Avisos (order, filter, pages, what is left out), CSV exports and stats.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ApiClient, addUser, errorOf, limitErrorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";
import { aBrowserSubscription } from "../../../../test/support/subscriptions.js";
import { createNotificationsRepository, type Audience } from "../../../store/notifications-repository.js";
import { payloadFor } from "../../../delivery/notification-input.js";

const ENV = { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com", SINO_MAX_CHANNELS_PER_SUBSCRIPTION: "2" };

for (const dialect of DIALECTS) {
  describe(`channels, preferences, events and notices on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let publicClient: ApiClient;
    let clock = Date.parse("2026-03-10T15:00:00Z");

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: ENV, now: () => clock });
      admin = await setUpAdmin(server);
      publicClient = new ApiClient(server);
    });
    afterAll(async () => {
      await server.close();
    });

    async function register(body: unknown) {
      return publicClient.post("/api/v1/subscriptions", body);
    }
    async function channelsOfRow(endpoint: string): Promise<string[]> {
      const rows = await server.database.db
        .selectFrom("subscriptions")
        .innerJoin("subscription_channels", "subscription_channels.subscription_id", "subscriptions.id")
        .innerJoin("channels", "channels.id", "subscription_channels.channel_id")
        .select("channels.slug")
        .where("subscriptions.endpoint", "=", endpoint)
        .orderBy("channels.slug")
        .execute();
      return rows.map((r) => r.slug);
    }
    async function storeSend(title: string, audience: Audience, extra: { sendAt?: number } = {}) {
      const repo = createNotificationsRepository(server.database);
      const input = { title, body: `corpo ${title}`, icon: null, image: null, badge: null, tag: undefined, url: null, urgency: null, ttlSeconds: 60, topic: null, audience, ...extra };
      return repo.createWithJobs(input, { now: clock, jobSize: 1000, payloadFor: ({ id, tag }) => payloadFor(input, tag, String(id)) });
    }

    it("lets an admin create channels (slug rules, unique, `todos` reserved) and lists them publicly when active", async () => {
      const created = await admin.post("/api/v1/channels", { slug: "promocoes", name: "Promoções", description: "Ofertas", isDefault: true });
      expect(created.status).toBe(201);
      expect(created.body.channel).toMatchObject({ slug: "promocoes", name: "Promoções", isDefault: true, archived: false, subscribers: 0 });
      expect((await admin.post("/api/v1/channels", { slug: "noticias", name: "Notícias" })).status).toBe(201);
      expect((await admin.post("/api/v1/channels", { slug: "eventos", name: "Eventos" })).status).toBe(201);
      expect(await admin.post("/api/v1/channels", { slug: "promocoes", name: "Outra" })).toMatchObject({ status: 409, body: errorOf("channel_slug_taken", "slug") });
      expect((await admin.post("/api/v1/channels", { slug: "todos", name: "Todos" })).body.error.code).toBe("channel_slug_reserved");
      expect((await admin.post("/api/v1/channels", { slug: "Com Espaço", name: "X" })).body.error.code).toBe("channel_slug_invalid");

      const config = await publicClient.get("/api/v1/config");
      expect(config.body.channels.map((c: { slug: string }) => c.slug)).toEqual(["eventos", "noticias", "promocoes"]);
      expect(config.body.maxChannelsPerSubscription).toBe(2);
    });

    it("refuses channel management to a publisher and to anonymous callers, but lets a publisher read them", async () => {
      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.post("/api/v1/channels", { slug: "x", name: "X" })).status).toBe(403);
      expect((await publisher.get("/api/v1/channels")).status).toBe(200);
      expect((await publicClient.get("/api/v1/channels")).status).toBe(401);
      const id = (await admin.get("/api/v1/channels")).body.channels[0].id;
      expect((await publisher.request("PATCH", `/api/v1/channels/${id}`, { name: "Y" })).status).toBe(403);
      expect((await publisher.get("/api/v1/subscribers")).status).toBe(403);
      expect((await publisher.request("DELETE", "/api/v1/subscribers/1")).status).toBe(403);
      expect((await fetch(`${server.url}/api/v1/subscribers.csv`, { headers: { cookie: `${publisher.cookieName}=${publisher.session}` } })).status).toBe(403);
    });

    it("puts a new subscription in the default channels and answers with its channels", async () => {
      const sub = aBrowserSubscription();
      const res = await register(sub);
      expect(res.status).toBe(201);
      expect(res.body.subscription.channels).toEqual(["promocoes"]);
      // Registering again (every visit) keeps the choice.
      expect((await register(sub)).body.subscription.channels).toEqual(["promocoes"]);
    });

    it("stores a channel choice only with proof of possession, all or nothing", async () => {
      const sub = aBrowserSubscription();
      await register(sub);
      const put = (body: unknown) => publicClient.request("PUT", "/api/v1/subscriptions/channels", body);

      const wrongAuth = aBrowserSubscription().keys.auth;
      expect(await put({ endpoint: sub.endpoint, auth: wrongAuth, channels: ["noticias"] })).toMatchObject({ status: 403, body: errorOf("subscription_auth_mismatch", "auth") });
      expect(await channelsOfRow(sub.endpoint)).toEqual(["promocoes"]);

      expect(await put({ endpoint: sub.endpoint, auth: sub.keys.auth, channels: ["noticias", "nao-existe"] })).toMatchObject({
        status: 400,
        body: errorOf("channel_not_found", "channels"),
      });
      expect(await put({ endpoint: sub.endpoint, auth: sub.keys.auth, channels: ["noticias", "eventos", "promocoes"] })).toMatchObject({
        status: 400,
        body: limitErrorOf("too_many_channels", "channels", "channels", 2),
      });
      expect(await channelsOfRow(sub.endpoint)).toEqual(["promocoes"]);

      const ok = await put({ endpoint: sub.endpoint, auth: sub.keys.auth, channels: ["noticias", "eventos"] });
      expect(ok).toMatchObject({ status: 200, body: { channels: ["eventos", "noticias"] } });
      expect(await channelsOfRow(sub.endpoint)).toEqual(["eventos", "noticias"]);
      expect((await put({ endpoint: "https://fcm.googleapis.com/fcm/send/nobody", auth: sub.keys.auth, channels: [] })).status).toBe(404);
    });

    it("refuses an archived channel for new choices but keeps existing ones, and hides it from the public", async () => {
      const created = await admin.post("/api/v1/channels", { slug: "arquivo", name: "Arquivo" });
      const sub = aBrowserSubscription();
      await register(sub);
      const put = (channels: string[]) => publicClient.request("PUT", "/api/v1/subscriptions/channels", { endpoint: sub.endpoint, auth: sub.keys.auth, channels });
      expect((await put(["arquivo"])).status).toBe(200);
      const patched = await admin.request("PATCH", `/api/v1/channels/${created.body.channel.id}`, { archived: true });
      expect(patched.body.channel).toMatchObject({ archived: true, subscribers: 1 });
      expect((await publicClient.get("/api/v1/config")).body.channels.map((c: { slug: string }) => c.slug)).not.toContain("arquivo");
      expect((await put(["arquivo"])).body.error.code).toBe("channel_not_found");
      expect(await put(["eventos"])).toMatchObject({ status: 200, body: { channels: ["eventos"] } });
      expect(await channelsOfRow(sub.endpoint)).toEqual(["arquivo", "eventos"]);
    });

    it("moves the channels to the new subscription on rotation (previous) and removes the old one", async () => {
      const old = aBrowserSubscription();
      await register(old);
      await publicClient.request("PUT", "/api/v1/subscriptions/channels", { endpoint: old.endpoint, auth: old.keys.auth, channels: ["noticias"] });
      const fresh = aBrowserSubscription();

      // Wrong proof: a new subscription like any other, the old one untouched.
      const forged = await register({ ...fresh, previous: { endpoint: old.endpoint, auth: aBrowserSubscription().keys.auth } });
      expect(forged.body.subscription.channels).toEqual(["promocoes"]);
      expect(await channelsOfRow(old.endpoint)).toEqual(["noticias"]);

      const rotated = await register({ ...aBrowserSubscription(), endpoint: fresh.endpoint, keys: fresh.keys, previous: { endpoint: old.endpoint, auth: old.keys.auth } });
      expect(rotated.body.subscription.channels).toEqual(["noticias"]);
      const oldRow = await server.database.db.selectFrom("subscriptions").select("id").where("endpoint", "=", old.endpoint).executeTakeFirst();
      expect(oldRow).toBeUndefined();
    });

    it("records each event once per subscription and type and counts it in the send's results CSV", async () => {
      const sub = aBrowserSubscription();
      await register(sub);
      const send = await storeSend("Resultado", { kind: "everyone" });
      await server.database.db.updateTable("notifications").set({ accepted: 4 }).where("id", "=", send.id).execute();
      const report = (type: string, auth = sub.keys.auth, notificationId = String(send.id)) =>
        publicClient.post("/api/v1/events", { notificationId, type, endpoint: sub.endpoint, auth });

      expect((await report("shown")).status).toBe(204);
      expect((await report("shown")).status).toBe(204);
      expect((await report("clicked")).status).toBe(204);
      expect((await report("clicked", aBrowserSubscription().keys.auth)).status).toBe(403);
      expect(await report("shown", sub.keys.auth, "999999")).toMatchObject({ status: 404, body: errorOf("notification_not_found", "notificationId") });
      const rows = await server.database.db.selectFrom("notification_events").selectAll().where("notification_id", "=", send.id).execute();
      expect(rows.map((r) => r.type).sort()).toEqual(["clicked", "shown"]);

      const csv = await fetch(`${server.url}/api/v1/notifications/${send.id}/results.csv`, { headers: { cookie: `${admin.cookieName}=${admin.session}` } });
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
      const lines = (await csv.text()).replace(/^\uFEFF/, "").split("\r\n");
      expect(lines[0]).toBe("Envio,Título,Destinatários,Aceitos,Exibidos,Clicados,Taxa de cliques,Fechados,Falhas,Removidos,Situação,Em nova tentativa,Próxima tentativa,Motivos das novas tentativas,Em Avisos,cliques_abrir,cliques_acao_1,cliques_acao_2");
      // Then the send's state (it may still be going out), retries waiting, next attempt, causes, Avisos.
      expect(lines[1]).toMatch(new RegExp(`^${send.id},Resultado,${send.counts.queued},4,1,1,0\\.2500,0,0,0,[^,]+,0,,,Publicado em Avisos,1,0,0$`));
      expect((await fetch(`${server.url}/api/v1/notifications/${send.id}/results.csv`)).status).toBe(401);
    });

    it("lists notices newest first, by channel, in pages, leaving out scheduled, cancelled and send-to-me sends", async () => {
      const channels = (await admin.get("/api/v1/channels")).body.channels as { id: string; slug: string }[];
      const noticias = Number(channels.find((c) => c.slug === "noticias")!.id);
      clock += 60_000;
      const a = await storeSend("Aviso A", { kind: "everyone" });
      clock += 60_000;
      const b = await storeSend("Aviso B", { kind: "channels", channels: [noticias] });
      clock += 60_000;
      await storeSend("Agendado", { kind: "everyone" }, { sendAt: clock + 3_600_000 });
      const cancelled = await storeSend("Cancelado", { kind: "everyone" });
      await createNotificationsRepository(server.database).cancel(cancelled.id, clock);
      await storeSend("Para mim", { kind: "endpoint", endpoint: "https://fcm.googleapis.com/fcm/send/me" });
      clock += 60_000;
      const c = await storeSend("Aviso <b>C</b>", { kind: "everyone" });

      const all = await publicClient.get("/api/v1/notices?limit=2");
      expect(all.body.notices.map((n: { title: string }) => n.title)).toEqual(["Aviso <b>C</b>", "Aviso B"]);
      expect(all.body.notices[1]).toMatchObject({ id: String(b.id), channels: [{ slug: "noticias", name: "Notícias" }], body: "corpo Aviso B" });
      const next = await publicClient.get(`/api/v1/notices?limit=2&before=${encodeURIComponent(all.body.nextCursor)}`);
      expect(next.body.notices[0].id).toBe(String(a.id));
      const titles = (await publicClient.get("/api/v1/notices?limit=100")).body.notices.map((n: { title: string }) => n.title);
      expect(titles).not.toContain("Agendado");
      expect(titles).not.toContain("Cancelado");
      expect(titles).not.toContain("Para mim");
      const filtered = await publicClient.get("/api/v1/notices?channel=noticias");
      expect(filtered.body).toEqual({ notices: [expect.objectContaining({ id: String(b.id) })], nextCursor: null });
      expect(c.id).toBeGreaterThan(b.id);
    });

    it("streams a notice published after the stream opened", async () => {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/api/v1/notices/stream`, { signal: controller.signal });
      expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      // The stream has started (the retry line) before the send is made.
      let text = decoder.decode((await reader.read()).value);
      const send = await storeSend("Ao vivo", { kind: "everyone" });
      while (!text.includes("event: notice")) text += decoder.decode((await reader.read()).value);
      controller.abort();
      const data = /data: (.*)\n/.exec(text.slice(text.indexOf("event: notice")))![1]!;
      expect(JSON.parse(data)).toMatchObject({ id: String(send.id), title: "Ao vivo", channels: [] });
    });

    it("lists subscribers to admins without endpoints or keys, exports counts as CSV, and removes one (logged)", async () => {
      const sub = aBrowserSubscription();
      await publicClient.post("/api/v1/subscriptions", sub, {
        "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
      });
      const list = await admin.get("/api/v1/subscribers?browser=Firefox");
      expect(list.body.total).toBe(1);
      const [row] = list.body.subscribers;
      expect(Object.keys(row).sort()).toEqual(["activity", "browser", "channels", "createdAt", "id", "lastSeenAt", "os", "tags", "timeZone", "userId", "vapidMismatchAt"]);
      expect(row).toMatchObject({ browser: "Firefox", os: "Linux", channels: ["promocoes"], vapidMismatchAt: null });
      expect((await admin.get("/api/v1/subscribers?channel=promocoes&pageSize=1")).body.subscribers).toHaveLength(1);

      const csv = await fetch(`${server.url}/api/v1/subscribers.csv`, { headers: { cookie: `${admin.cookieName}=${admin.session}` } });
      const text = (await csv.text()).replace(/^\uFEFF/, "");
      expect(text.split("\r\n")[0]).toBe("Tipo,Nome,Inscritos");
      expect(text).toContain("Navegador,Firefox,1\r\n");
      expect(text).toMatch(/Canal,Promoções,\d+\r\n/);

      expect((await admin.request("DELETE", `/api/v1/subscribers/${row.id}`)).status).toBe(204);
      expect((await admin.request("DELETE", `/api/v1/subscribers/${row.id}`)).status).toBe(404);
      const removals = await server.database.db.selectFrom("subscription_removals").selectAll().where("reason", "=", "operator").execute();
      expect(removals).toHaveLength(1);
    });

    it("gives stats by day in the configured time zone with real counts", async () => {
      const stats = await admin.get("/api/v1/stats?days=3");
      expect(stats.status).toBe(200);
      const { subscribersOverTime, sends, byChannel, byBrowser } = stats.body;
      // 15:00Z on 2026-03-10 is 12:00 in São Paulo (UTC−3).
      expect(subscribersOverTime.map((d: { date: string }) => d.date)).toEqual(["2026-03-08", "2026-03-09", "2026-03-10"]);
      const today = subscribersOverTime[2];
      const total = Number((await server.database.db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
      expect(today.total).toBe(total);
      // The operator's removal; the rotated subscription is the same browser, not a removal.
      expect(today.removed).toBe(1);
      // Everything was made today, so the day's net change is the whole count. The rotated-away
      // row was neither logged nor counted as added (it no longer exists).
      expect(today.added - today.removed).toBe(total);
      expect(sends[2].sends).toBeGreaterThanOrEqual(4);
      expect(sends[0]).toEqual({ date: "2026-03-08", sends: 0, accepted: 0, clicked: 0, clickRate: null });
      expect(byChannel[0]).toHaveProperty("slug");
      expect(byBrowser.reduce((sum: number, b: { subscribers: number }) => sum + b.subscribers, 0)).toBe(total);
    });
  });
}
