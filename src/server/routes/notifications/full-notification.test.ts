/**
 * The full notification (issue 19) over HTTP, on SQLite and PostgreSQL: the new fields through
 * POST /notifications, PATCH, templates and the quick publish; each refusal's code with nothing
 * stored; the size refusal; the declarative flag of a registration and the form each browser is
 * sent; clicks counted by action.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../../test/support/fake-push/fake-push-service.js";
import { subscriberKeysFor } from "../../../../test/support/fake-push/keys.js";
import { loadTestTls } from "../../../../test/support/fake-push/test-tls.js";
import { ApiClient, addToken, addUser, errorOf, setUpAdmin } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";

const NOTIFICATIONS = "/api/v1/notifications";
const ENGINE_ENV = {
  SINO_PUSH_CA_FILE: loadTestTls().caPath,
  SINO_WORKER_POLL_MS: "50",
  SINO_ENCRYPTION_THREADS: "1",
  SINO_PUSH_TIMEOUT_MS: "5000",
};

/** The test server's SINO_PUBLIC_URL (the default): the declarative form's links are absolute against it. */
const PUBLIC_URL = "http://localhost:8080";

const FULL = {
  actions: [
    { label: "Ver mapa", url: "https://mapas.example.org/rua-a" },
    { label: "Avisos", url: "/avisos" },
  ],
  collapseKey: "obras-rua-a",
  renotify: true,
  requireInteraction: true,
  silent: true,
  badge: "/selo.png",
  appBadge: 7,
  data: { tela: "obras", id: 12 },
};

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService({ decryptSample: 1 });
});
afterAll(async () => {
  await fake.close();
});

for (const dialect of DIALECTS) {
  describe(`the full notification on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    let publisher: ApiClient;
    let ids: string[];
    const client = () => ({ url: server.url, origin: server.url });
    const sendCount = async () => Number((await server.database.db.selectFrom("notifications").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    const keysOf = (id: string) => {
      const keys = subscriberKeysFor(fake.keySeed, id);
      return { p256dh: keys.p256dh.toString("base64url"), auth: keys.auth.toString("base64url") };
    };

    beforeAll(async () => {
      server = await startTestServer({ dialect, env: ENGINE_ENV });
      admin = await setUpAdmin(client());
      publisher = (await addUser(admin, "publisher")).client;
      ids = await seedSubscriptions(server.database, fake, 3, `${dialect}-full-`);
    });
    afterAll(async () => {
      await server.close();
    });

    it("stores the declarative flag each registration reports, the latest winning", async () => {
      const anonymous = new ApiClient(client());
      const endpoint = fake.endpointFor(ids[0]!);
      const flag = async () => Number((await server.database.db.selectFrom("subscriptions").select("declarative").where("endpoint", "=", endpoint).executeTakeFirstOrThrow()).declarative);
      expect((await anonymous.post("/api/v1/subscriptions", { endpoint, keys: keysOf(ids[0]!), declarative: true })).status).toBe(200);
      expect(await flag()).toBe(1);
      expect((await anonymous.post("/api/v1/subscriptions", { endpoint, keys: keysOf(ids[0]!) })).status).toBe(200);
      expect(await flag()).toBe(0);
      expect((await anonymous.post("/api/v1/subscriptions", { endpoint, keys: keysOf(ids[0]!), declarative: true })).status).toBe(200);
      expect(await flag()).toBe(1);
      expect((await anonymous.post("/api/v1/subscriptions", { endpoint, keys: keysOf(ids[0]!), declarative: "sim" })).body.error.code).toBe("validation_failed");
      expect(await flag()).toBe(1);
    });

    it("sends each browser the form it shows, and counts clicks by action (API and CSV)", async () => {
      fake.reset();
      const res = await publisher.post(NOTIFICATIONS, { title: "Obras na Rua A", body: "Das 8h às 18h", url: "/avisos/12", ...FULL });
      expect(res.status).toBe(201);
      expect(res.body.notification).toMatchObject({ ...FULL, badge: "/selo.png" });
      const id = res.body.notification.id as string;
      const send = await waitForNotification(() => server.delivery.getNotification(Number(id)));
      const stored = await server.database.db.selectFrom("notifications").select("declarative_payload").where("id", "=", Number(id)).executeTakeFirstOrThrow();
      // Stored beside the classic payload, built once with the send's id.
      expect(JSON.parse(stored.declarative_payload!)).toMatchObject({ web_push: 8030, notification: { data: { sinoId: id } } });
      expect(send.counts.accepted).toBe(3);
      const received = (fakeId: string) => JSON.parse(fake.stats().log.find((entry) => entry.id === fakeId && entry.plaintext?.includes("Obras na Rua A"))!.plaintext!) as Record<string, unknown>;

      // ids[0] said it shows declarative pushes (previous test): the Push API form, absolute links.
      expect(received(ids[0]!)).toEqual({
        web_push: 8030,
        notification: {
          title: "Obras na Rua A",
          body: "Das 8h às 18h",
          navigate: `${PUBLIC_URL}/avisos/12`,
          lang: "pt-BR",
          dir: "ltr",
          tag: "obras-rua-a",
          silent: true,
          badge: `${PUBLIC_URL}/selo.png`,
          requireInteraction: true,
          renotify: true,
          actions: [
            { action: "1", title: "Ver mapa", navigate: "https://mapas.example.org/rua-a" },
            { action: "2", title: "Avisos", navigate: `${PUBLIC_URL}/avisos` },
          ],
          data: { sinoId: id, url: `${PUBLIC_URL}/avisos/12`, data: { tela: "obras", id: 12 } },
        },
        app_badge: 7,
        mutable: true,
      });
      // The others get the classic payload Sino's worker reads.
      expect(received(ids[1]!)).toEqual({
        title: "Obras na Rua A",
        body: "Das 8h às 18h",
        badge: "/selo.png",
        tag: "obras-rua-a",
        url: "/avisos/12",
        id,
        renotify: true,
        requireInteraction: true,
        silent: true,
        actions: [
          { action: "1", title: "Ver mapa", url: "https://mapas.example.org/rua-a" },
          { action: "2", title: "Avisos", url: "/avisos" },
        ],
        appBadge: 7,
        data: { tela: "obras", id: 12 },
      });

      const anonymous = new ApiClient(client());
      const report = (fakeId: string, body: Record<string, unknown>) =>
        anonymous.post("/api/v1/events", { notificationId: id, endpoint: fake.endpointFor(fakeId), auth: keysOf(fakeId).auth, ...body });
      // An action belongs to a click only: refused, and nothing recorded.
      expect(await report(ids[0]!, { type: "shown", action: "1" })).toMatchObject({ status: 400, body: errorOf("validation_failed", "action") });
      expect((await report(ids[0]!, { type: "clicked", action: "3" })).body.error.code).toBe("validation_failed");
      expect(await server.database.db.selectFrom("notification_events").select("type").where("notification_id", "=", Number(id)).execute()).toEqual([]);
      expect((await report(ids[0]!, { type: "clicked", action: "2" })).status).toBe(204);
      expect((await report(ids[1]!, { type: "clicked" })).status).toBe(204);
      expect((await report(ids[2]!, { type: "clicked", action: "2" })).status).toBe(204);

      const read = await publisher.get(`${NOTIFICATIONS}/${id}`);
      expect(read.body.notification.counts).toMatchObject({ clicked: 3, clickedByAction: { open: 1, "1": 0, "2": 2 } });
      const csv = await fetch(`${server.url}${NOTIFICATIONS}/${id}/results.csv`, { headers: { cookie: `${publisher.cookieName}=${publisher.session}` } });
      const [header, row] = (await csv.text()).replace(/^\uFEFF/, "").split("\r\n");
      expect(header!.split(",").slice(-3)).toEqual(["cliques_abrir", "cliques_acao_1", "cliques_acao_2"]);
      expect(row!.split(",").slice(-3)).toEqual(["1", "0", "2"]);
    });

    it("sends each device of a person their own copy, in the form that device shows", async () => {
      fake.reset();
      const db = server.database.db;
      // ids[1] and ids[2] are Bia's; only ids[2] shows declarative pushes.
      await db.updateTable("subscriptions").set({ person_id: "bia" }).where("endpoint", "in", [fake.endpointFor(ids[1]!), fake.endpointFor(ids[2]!)]).execute();
      await db.updateTable("subscriptions").set({ declarative: 1 }).where("endpoint", "=", fake.endpointFor(ids[2]!)).execute();
      const res = await publisher.post(NOTIFICATIONS, {
        title: "Olá, {{nome}}",
        url: "/pedidos/{{pedido}}",
        actions: [{ label: "Rastrear", url: "https://entregas.example.org/r" }],
        audience: { type: "users", users: [{ id: "bia", data: { nome: "Bia", pedido: 42 } }] },
        category: "transactional",
      });
      expect(res.status).toBe(201);
      const id = res.body.notification.id as string;
      await waitForNotification(() => server.delivery.getNotification(Number(id)));
      const received = (fakeId: string) => JSON.parse(fake.stats().log.find((entry) => entry.id === fakeId && entry.plaintext?.includes("Bia"))!.plaintext!) as Record<string, unknown>;
      expect(received(ids[1]!)).toMatchObject({ title: "Olá, Bia", url: "/pedidos/42", id, actions: [{ action: "1", title: "Rastrear", url: "https://entregas.example.org/r" }] });
      expect(received(ids[2]!)).toMatchObject({
        web_push: 8030,
        notification: { title: "Olá, Bia", navigate: `${PUBLIC_URL}/pedidos/42`, data: { sinoId: id, url: `${PUBLIC_URL}/pedidos/42` }, actions: [{ action: "1", title: "Rastrear", navigate: "https://entregas.example.org/r" }] },
      });
      expect(fake.stats().log.filter((entry) => entry.plaintext?.includes("Bia"))).toHaveLength(2);
    });

    it("refuses each bad field with its code, storing nothing", async () => {
      const before = await sendCount();
      const cases: Array<[Record<string, unknown>, string, string | undefined]> = [
        [{ actions: [{ url: "/a" }] }, "action_label_required", "actions.0.label"],
        [{ actions: [{ label: "a".repeat(31), url: "/a" }] }, "action_label_too_long", "actions.0.label"],
        [{ actions: [{ label: "ok", url: "javascript:alert(1)" }] }, "action_link_invalid", "actions.0.url"],
        [{ actions: [{ label: "ok", url: "http://outro.example/x" }] }, "action_link_invalid", "actions.0.url"],
        [{ actions: [{ label: "1", url: "/1" }, { label: "2", url: "/2" }, { label: "3", url: "/3" }] }, "too_many_actions", "actions"],
        [{ actions: [{ label: "ok", url: "/a", icon: "/i.png" }] }, "unknown_field", "actions.0.icon"],
        [{ badge: "ftp://selo" }, "badge_invalid", "badge"],
        [{ badge: "http://outro.example/selo.png" }, "badge_invalid", "badge"],
        [{ appBadge: 100_000 }, "app_badge_invalid", "appBadge"],
        [{ appBadge: -1 }, "app_badge_invalid", "appBadge"],
        [{ data: { texto: "x".repeat(1_100) } }, "data_too_large", "data"],
        [{ silent: "sim" }, "validation_failed", "silent"],
      ];
      for (const [fields, code, field] of cases) {
        const res = await publisher.post(NOTIFICATIONS, { title: "Não sai", audience: { type: "endpoint", endpoint: fake.endpointFor(ids[1]!) }, ...fields });
        expect({ fields, status: res.status, body: res.body }).toEqual({ fields, status: 400, body: errorOf(code, field) });
      }
      expect(await sendCount()).toBe(before);
    });

    it("refuses a send too large for one push with its size and how many bytes to cut", async () => {
      const before = await sendCount();
      const res = await publisher.post(NOTIFICATIONS, { title: "Grande", url: `https://exemplo.com.br/${"a".repeat(2_000)}`, data: { texto: "b".repeat(900) } });
      expect(res.status).toBe(413);
      const { bytes, max, over } = res.body.error.details as { bytes: number; max: number; over: number };
      expect(max).toBe(4_096);
      expect(over).toBe(bytes - max);
      expect(over).toBeGreaterThan(0);
      expect(res.body.error).toMatchObject({ code: "payload_too_large" });
      expect(res.body.error.message).toBe(
        `A notificação cifrada ficaria com ${bytes.toLocaleString("pt-BR")} bytes, e um push leva no máximo 4.096. Corte ${over.toLocaleString("pt-BR")} bytes do texto, dos links, dos botões ou dos dados.`,
      );
      expect(await sendCount()).toBe(before);
    });

    it("edits the new fields of a scheduled send (PATCH), null clearing them", async () => {
      const sendAt = new Date(Date.now() + 3_600_000).toISOString();
      const created = await publisher.post(NOTIFICATIONS, { title: "Mais tarde", sendAt, ...FULL });
      const id = created.body.notification.id as string;
      const edited = await publisher.patch(`${NOTIFICATIONS}/${id}`, { actions: null, silent: false, appBadge: null, data: ["novo"], badge: "" });
      expect(edited.status).toBe(200);
      expect(edited.body.notification).toMatchObject({ actions: [], silent: false, appBadge: null, data: ["novo"], badge: null, renotify: true, requireInteraction: true, collapseKey: "obras-rua-a" });
      const refused = await publisher.patch(`${NOTIFICATIONS}/${id}`, { actions: [{ label: "", url: "/x" }] });
      expect(refused.body).toEqual(errorOf("action_label_required", "actions.0.label"));
      expect((await publisher.get(`${NOTIFICATIONS}/${id}`)).body.notification.actions).toEqual([]);
    });

    it("keeps the new fields in templates", async () => {
      const created = await publisher.post("/api/v1/templates", { name: `Completo ${dialect}`, title: "Modelo", ...FULL });
      expect(created.status).toBe(201);
      expect(created.body.template).toMatchObject(FULL);
      const id = created.body.template.id as string;
      const patched = await publisher.patch(`/api/v1/templates/${id}`, { actions: [], data: null, renotify: false, badge: null });
      expect(patched.body.template).toMatchObject({ actions: [], data: null, renotify: false, badge: null, silent: true, appBadge: 7 });
      expect((await publisher.post("/api/v1/templates", { name: "Ruim", title: "x", appBadge: 1.5 })).body).toEqual(errorOf("app_badge_invalid", "appBadge"));
    });

    it("takes the full notification from quick publish headers, ntfy's X-Actions included", async () => {
      const { secret } = await addToken(admin, "publish", `headers ${dialect}`);
      const script = new ApiClient(client(), { bearer: secret, origin: null });
      const publish = (headers: Record<string, string>) => script.request("POST", "/p/todos", "Backup concluido", { "content-type": "text/plain", ...headers });
      const res = await publish({
        "X-Actions": "view, Ver log, https://ci.example.org/log/7; action=view, label=\"Sim, repetir\", url=/repetir",
        "X-Tag": "backup",
        "X-Renotify": "yes",
        "X-Silent": "sim",
        "X-Require-Interaction": "1",
        "X-Badge": "/selo.png",
        "X-App-Badge": "2",
        "X-Data": '{"job":7}',
      });
      expect(res.status).toBe(201);
      expect(res.body.notification).toMatchObject({
        actions: [
          { label: "Ver log", url: "https://ci.example.org/log/7" },
          { label: "Sim, repetir", url: "/repetir" },
        ],
        collapseKey: "backup",
        renotify: true,
        silent: true,
        requireInteraction: true,
        badge: "/selo.png",
        appBadge: 2,
        data: { job: 7 },
      });
      expect((await publish({ "X-Actions": "http, Fechar, https://api.example/close" })).body).toEqual(errorOf("validation_failed", "X-Actions"));
      expect((await publish({ "X-Actions": "view, Sem link" })).body).toEqual(errorOf("action_link_invalid", "X-Actions"));
      expect((await publish({ "X-Data": "{job}" })).body).toEqual(errorOf("data_invalid", "X-Data"));
      expect((await publish({ "X-App-Badge": "muitos" })).body).toEqual(errorOf("app_badge_invalid", "X-App-Badge"));
      expect((await publish({ "X-Silent": "talvez" })).body).toEqual(errorOf("validation_failed", "X-Silent"));
    });

    it("makes a declarative push's path links against the subscriber's own site", async () => {
      const site = await admin.post("/api/v1/sites", { origin: "https://loja.example.com.br" });
      expect(site.status).toBe(201);
      const { db } = server.database;
      // ids[0] (Sino's own page) and ids[1] (the shop's site) both show declarative pushes.
      await db.updateTable("subscriptions").set({ declarative: 1 }).where("endpoint", "in", [fake.endpointFor(ids[0]!), fake.endpointFor(ids[1]!)]).execute();
      await db.updateTable("subscriptions").set({ site_id: Number(site.body.site.id) }).where("endpoint", "=", fake.endpointFor(ids[1]!)).execute();
      fake.reset();
      const res = await publisher.post(NOTIFICATIONS, { title: "Ofertas da semana", url: "/ofertas", actions: [{ label: "Carrinho", url: "/carrinho" }] });
      expect(res.status).toBe(201);
      const send = await waitForNotification(() => server.delivery.getNotification(Number(res.body.notification.id)));
      expect(send.counts.accepted).toBe(3);
      const received = (fakeId: string) => JSON.parse(fake.stats().log.find((entry) => entry.id === fakeId && entry.plaintext?.includes("Ofertas da semana"))!.plaintext!) as { notification: { navigate: string; actions: { navigate: string }[] } };
      expect(received(ids[0]!).notification).toMatchObject({ navigate: `${PUBLIC_URL}/ofertas`, actions: [{ navigate: `${PUBLIC_URL}/carrinho` }] });
      expect(received(ids[1]!).notification).toMatchObject({ navigate: "https://loja.example.com.br/ofertas", actions: [{ navigate: "https://loja.example.com.br/carrinho" }] });
      // Without a link: the subscriber's site's home page, as the classic worker opens.
      fake.reset();
      const bare = await publisher.post(NOTIFICATIONS, { title: "Sem link" });
      expect((await waitForNotification(() => server.delivery.getNotification(Number(bare.body.notification.id)))).counts.accepted).toBe(3);
      const navigateOf = (fakeId: string) => (JSON.parse(fake.stats().log.find((entry) => entry.id === fakeId && entry.plaintext?.includes("Sem link"))!.plaintext!) as { notification: { navigate: string } }).notification.navigate;
      expect(navigateOf(ids[0]!)).toBe(`${PUBLIC_URL}/`);
      expect(navigateOf(ids[1]!)).toBe("https://loja.example.com.br/");
    });
  });
}
