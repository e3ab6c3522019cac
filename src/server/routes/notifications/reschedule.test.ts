/**
 * PATCH /notifications/:id on SQLite and PostgreSQL: a scheduled send edited or rescheduled is
 * checked exactly as a new one, a refused edit stores nothing, an edited send goes out as edited,
 * and a send that already left (or was cancelled) can no longer be edited.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../../../test/support/fake-push/test-tls.js";
import { ApiClient, addUser, errorOf, setUpAdmin } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";

const NOTIFICATIONS = "/api/v1/notifications";
const ENGINE_ENV = {
  SINO_PUSH_CA_FILE: loadTestTls().caPath,
  SINO_WORKER_POLL_MS: "50",
  SINO_ENCRYPTION_THREADS: "1",
  SINO_PUSH_TIMEOUT_MS: "5000",
};
const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService({ decryptSample: 1 });
});
afterAll(async () => {
  await fake.close();
});

for (const dialect of DIALECTS) {
  describe(`editing a scheduled send over HTTP on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    let ids: string[];
    beforeAll(async () => {
      server = await startTestServer({ dialect, env: ENGINE_ENV });
      admin = await setUpAdmin({ url: server.url, origin: server.url });
      ids = await seedSubscriptions(server.database, fake, 3, `${dialect}-reschedule-`);
      expect((await admin.post("/api/v1/channels", { name: "Obras", slug: "obras" })).status).toBe(201);
    });
    afterAll(async () => {
      await server.close();
    });
    beforeEach(() => {
      fake.reset();
    });

    const schedule = async (body: Record<string, unknown> = {}) => {
      const res = await admin.post(NOTIFICATIONS, { title: "Original", body: "corpo", sendAt: inHours(1), ...body });
      expect(res.status).toBe(201);
      return res.body.notification as { id: string; sendAt: string };
    };

    it("changes content, audience and time, and clears a field with null", async () => {
      const send = await schedule({ icon: "https://exemplo.com.br/i.png" });
      const when = inHours(2);
      const res = await admin.patch(`${NOTIFICATIONS}/${send.id}`, { title: "Editada", body: null, icon: null, image: "/img.png", urgency: "high", ttl: 600, sendAt: when, audience: { type: "channels", channels: ["obras"] } });
      expect(res.status).toBe(200);
      expect(res.body.notification).toMatchObject({ id: send.id, status: "scheduled", title: "Editada", body: null, icon: null, image: "/img.png", urgency: "high", ttl: 600, sendAt: when, audience: { type: "channels", channels: ["obras"] } });
      expect((await admin.get(`${NOTIFICATIONS}/${send.id}`)).body.notification).toMatchObject({ title: "Editada", sendAt: when });
      // A field not given stays.
      expect((await admin.patch(`${NOTIFICATIONS}/${send.id}`, { body: "só o corpo" })).body.notification).toMatchObject({ title: "Editada", body: "só o corpo", urgency: "high", sendAt: when });
      await admin.post(`${NOTIFICATIONS}/${send.id}/cancel`);
    });

    it("checks an edit as a new send, and a refused edit changes nothing", async () => {
      const send = await schedule();
      const before = (await admin.get(`${NOTIFICATIONS}/${send.id}`)).body.notification;
      const refused = async (body: Record<string, unknown>) => {
        const res = await admin.patch(`${NOTIFICATIONS}/${send.id}`, body);
        expect(res.status).toBeGreaterThanOrEqual(400);
        return res.body.error;
      };
      expect(await refused({ title: "" })).toMatchObject({ code: "title_required", field: "title" });
      expect(await refused({ title: "x".repeat(81) })).toMatchObject({ code: "title_too_long" });
      expect(await refused({ url: "javascript:alert(1)" })).toMatchObject({ code: "link_invalid", field: "url" });
      expect(await refused({ image: "http://outro.example.com/a.png" })).toMatchObject({ code: "link_invalid", field: "image" });
      expect(await refused({ sendAt: new Date(Date.now() - 2 * HOUR).toISOString() })).toMatchObject({ code: "send_at_past", field: "sendAt" });
      expect(await refused({ sendAt: inHours(24 * 367) })).toMatchObject({ code: "send_at_too_far", field: "sendAt" });
      expect(await refused({ sendAt: "amanhã" })).toMatchObject({ code: "send_at_invalid" });
      expect(await refused({ audience: { type: "channels", channels: ["nao-existe"] } })).toMatchObject({ code: "channel_not_found", field: "audience.channels" });
      expect(await refused({ category: "transactional" })).toMatchObject({ code: "transactional_audience", field: "category" });
      expect(await refused({ title: "Olá {{nome}}" })).toMatchObject({ code: "placeholder_not_allowed" });
      expect(await refused({ ttl: -1 })).toMatchObject({ code: "ttl_invalid" });
      expect((await admin.patch(`${NOTIFICATIONS}/${send.id}`, { foo: 1 })).status).toBe(400);
      expect((await admin.get(`${NOTIFICATIONS}/${send.id}`)).body.notification).toEqual(before);
      await admin.post(`${NOTIFICATIONS}/${send.id}/cancel`);
    });

    it("keeps a people send's people and their values through an edit, and checks placeholders against them", async () => {
      const send = await schedule({ title: "Olá {{nome}}", audience: { type: "users", users: [{ id: "ana", data: { nome: "Ana" } }, { id: "bia", data: { nome: "Bia" } }] } });
      const res = await admin.patch(`${NOTIFICATIONS}/${send.id}`, { body: "Seu pedido {{pedido}}" });
      expect(res.body.error).toMatchObject({ code: "placeholder_missing", field: "pedido" });
      const ok = await admin.patch(`${NOTIFICATIONS}/${send.id}`, { title: "Oi {{nome}}" });
      expect(ok.body.notification).toMatchObject({ title: "Oi {{nome}}", audience: { type: "users", users: 2 } });
      const rows = await server.database.db.selectFrom("notification_people").select(["person_id", "data"]).where("notification_id", "=", Number(send.id)).orderBy("person_id").execute();
      expect(rows.map((row) => [row.person_id, JSON.parse(row.data!)])).toEqual([["ana", { nome: "Ana" }], ["bia", { nome: "Bia" }]]);
      await admin.post(`${NOTIFICATIONS}/${send.id}/cancel`);
    });

    it("sends an edited send as edited when it is moved to now, then refuses further edits", async () => {
      const send = await schedule();
      const res = await admin.patch(`${NOTIFICATIONS}/${send.id}`, { title: "Saiu editada", sendAt: new Date().toISOString() });
      expect(res.status).toBe(200);
      const done = await waitForNotification(() => server.delivery.getNotification(Number(send.id)));
      expect(done).toMatchObject({ status: "completed", title: "Saiu editada", counts: { queued: 3, accepted: 3 } });
      expect(JSON.parse(done.payload)).toMatchObject({ title: "Saiu editada", body: "corpo" });
      expect(new Set(fake.stats().acceptedById.keys())).toEqual(new Set(ids));
      expect(await admin.patch(`${NOTIFICATIONS}/${send.id}`, { title: "Tarde demais" })).toMatchObject({ status: 409, body: errorOf("send_not_scheduled") });
    });

    it("refuses to edit a cancelled or unknown send, and lets a publisher edit", async () => {
      const send = await schedule();
      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.patch(`${NOTIFICATIONS}/${send.id}`, { title: "Pelo publicador" })).body.notification.title).toBe("Pelo publicador");
      await admin.post(`${NOTIFICATIONS}/${send.id}/cancel`);
      expect(await admin.patch(`${NOTIFICATIONS}/${send.id}`, { title: "x" })).toMatchObject({ status: 409, body: errorOf("send_not_scheduled") });
      expect(await admin.patch(`${NOTIFICATIONS}/999999`, { title: "x" })).toMatchObject({ status: 404, body: errorOf("notification_not_found") });
      expect((await new ApiClient({ url: server.url, origin: server.url }).patch(`${NOTIFICATIONS}/${send.id}`, { title: "x" })).status).toBe(401);
    });
  });
}
