/**
 * Saved segments over HTTP and sends to a segment, on SQLite and PostgreSQL: CRUD and its rules,
 * sizes measured on every change, the segment audience (saved or written for the send) reaching
 * only the matching subscriptions, a scheduled send reading its saved segment when it goes out.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../../../test/support/fake-push/test-tls.js";
import { ApiClient, addToken, addUser, errorOf, setUpAdmin } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";
import { createNotificationsRepository } from "../../../store/notifications-repository.js";

const SEGMENTS = "/api/v1/segments";
const NOTIFICATIONS = "/api/v1/notifications";
const ENGINE_ENV = {
  SINO_PUSH_CA_FILE: loadTestTls().caPath,
  SINO_WORKER_POLL_MS: "50",
  SINO_ENCRYPTION_THREADS: "1",
  SINO_PUSH_TIMEOUT_MS: "5000",
};

const PREMIUM = { tag: "plano", op: "eq", value: "premium" };
const VIP = { tag: "vip", op: "exists" };

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService({ decryptSample: 1 });
});
afterAll(async () => {
  await fake.close();
});

for (const dialect of DIALECTS) {
  describe(`saved segments and segment sends on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    let script: ApiClient;
    let fakeIds: string[];
    const client = () => ({ url: server.url, origin: server.url });
    const finished = (id: string) => waitForNotification(() => server.delivery.getNotification(Number(id)));
    const accepted = () => new Set(fake.stats().acceptedById.keys());

    /**
     * 8 subscriptions: ana (plano premium) has s0 and s1; bia (plano premium, vip) s2; caio
     * (plano basico) s3; s4–s7 are anonymous.
     */
    beforeAll(async () => {
      server = await startTestServer({ dialect, env: ENGINE_ENV });
      admin = await setUpAdmin(client());
      script = new ApiClient(client(), { bearer: (await addToken(admin, "publish")).secret, origin: null });
      fakeIds = await seedSubscriptions(server.database, fake, 8, `${dialect}-segments-`);
      const rows = await server.database.db.selectFrom("subscriptions").select("id").orderBy("id").execute();
      for (const [index, person] of [[0, "ana"], [1, "ana"], [2, "bia"], [3, "caio"]] as const) {
        await server.database.db.updateTable("subscriptions").set({ person_id: person, identified_at: Date.now() }).where("id", "=", Number(rows[index]!.id)).execute();
      }
      const tag = (person_id: string, key: string, value: string | null) => ({ person_id, key, value, num_value: null, time_value: null, updated_at: 1 });
      await server.database.db
        .insertInto("person_tags")
        .values([tag("ana", "plano", "premium"), tag("bia", "plano", "premium"), tag("bia", "vip", null), tag("caio", "plano", "basico")])
        .execute();
    });
    afterAll(async () => {
      await server.close();
    });
    beforeEach(() => {
      fake.reset();
    });

    it("lets an admin save a segment (text or tree), measuring its size at once, and lists and shows it", async () => {
      const created = await admin.post(SEGMENTS, { name: "Clientes premium", description: "Plano pago", expression: "plano = premium" });
      expect(created.status).toBe(201);
      expect(created.body.segment).toMatchObject({
        name: "Clientes premium",
        description: "Plano pago",
        tree: PREMIUM,
        tagKinds: "trusted",
        size: { subscriptions: 3, people: 2 },
      });
      expect(typeof created.body.segment.expression).toBe("string");
      const vip = await admin.post(SEGMENTS, { name: "VIP", expression: VIP, tagKinds: "all" });
      expect(vip.body.segment).toMatchObject({ tree: VIP, tagKinds: "all", size: { subscriptions: 1, people: 1 }, description: null });

      const list = await admin.get(SEGMENTS);
      expect(list.body.segments.map((s: { name: string }) => s.name)).toEqual(["Clientes premium", "VIP"]);
      const shown = await admin.get(`${SEGMENTS}/${created.body.segment.id}`);
      expect(shown.body.segment).toMatchObject({ name: "Clientes premium", sends: [], history: [{ subscriptions: 3, people: 2 }] });
      expect(shown.body.segment.history[0].day).toBe(new Date().toISOString().slice(0, 10));
      await admin.delete(`${SEGMENTS}/${vip.body.segment.id}`);
    });

    it("refuses a taken name (any case), an invalid name or expression, and an unknown id", async () => {
      const first = await admin.post(SEGMENTS, { name: "Ônibus", expression: VIP });
      expect(first.status).toBe(201);
      expect(await admin.post(SEGMENTS, { name: "ÔNIBUS", expression: VIP })).toMatchObject({ status: 409, body: errorOf("segment_name_taken", "name") });
      expect(await admin.post(SEGMENTS, { name: " ", expression: VIP })).toMatchObject({ status: 400, body: errorOf("segment_name_invalid", "name") });
      expect((await admin.post(SEGMENTS, { name: "x".repeat(81), expression: VIP })).body.error.code).toBe("segment_name_invalid");
      expect((await admin.post(SEGMENTS, { name: "a\u0007b", expression: VIP })).body.error.code).toBe("text_control_characters");
      const bad = await admin.post(SEGMENTS, { name: "Quebrado", expression: "plano = = premium (" });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("segment_syntax");
      expect(bad.body.error).toMatchObject({ field: "expression", position: expect.any(Number) });
      expect(bad.body.error.message).toMatch(/posição \d+/);
      expect((await admin.post(SEGMENTS, { name: "Longo", expression: "x".repeat(4_001) })).body.error.code).toBe("segment_too_long");
      expect(await admin.get(`${SEGMENTS}/999999`)).toMatchObject({ status: 404, body: errorOf("segment_not_found") });
      expect((await admin.patch(`${SEGMENTS}/999999`, { name: "Outro" })).status).toBe(404);
      expect((await admin.delete(`${SEGMENTS}/999999`)).status).toBe(404);
      expect((await admin.delete(`${SEGMENTS}/${first.body.segment.id}`)).status).toBe(204);
      expect((await admin.get(`${SEGMENTS}/${first.body.segment.id}`)).status).toBe(404);
    });

    it("lets any operator read segments but only an admin change them", async () => {
      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.get(SEGMENTS)).status).toBe(200);
      expect((await publisher.post(SEGMENTS, { name: "Meu", expression: VIP })).status).toBe(403);
      expect((await new ApiClient(client()).get(SEGMENTS)).status).toBe(401);
    });

    it("measures the size again when the expression changes, and renames", async () => {
      const created = await admin.post(SEGMENTS, { name: "Mutável", expression: VIP });
      const id = created.body.segment.id as string;
      const renamed = await admin.patch(`${SEGMENTS}/${id}`, { name: "Mutável 2", expression: PREMIUM });
      expect(renamed.status).toBe(200);
      expect(renamed.body.segment).toMatchObject({ name: "Mutável 2", tree: PREMIUM, size: { subscriptions: 3, people: 2 } });
      expect((await admin.get(`${SEGMENTS}/${id}`)).body.segment.history).toEqual([expect.objectContaining({ subscriptions: 3, people: 2 })]);
      await admin.delete(`${SEGMENTS}/${id}`);
    });

    it("sends to a saved segment, reaching only its subscriptions, and the segment lists the send", async () => {
      const saved = (await admin.post(SEGMENTS, { name: "Premium envio", expression: PREMIUM })).body.segment;
      const res = await script.post(NOTIFICATIONS, { title: "Oferta premium", audience: { type: "segment", segment: saved.id } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ targeted: 3, notification: { audience: { type: "segment", segment: saved.id, name: "Premium envio" }, counts: { queued: 3 } } });
      expect(typeof res.body.notification.audience.expression).toBe("string");
      const done = await finished(res.body.notification.id);
      expect(done.counts).toMatchObject({ queued: 3, accepted: 3 });
      expect(accepted()).toEqual(new Set([fakeIds[0], fakeIds[1], fakeIds[2]]));
      const shown = await admin.get(`${SEGMENTS}/${saved.id}`);
      expect(shown.body.segment.sends).toEqual([expect.objectContaining({ id: res.body.notification.id, title: "Oferta premium", queued: 3 })]);
      expect((await admin.get(`/api/v1/audience?segment=${saved.id}`)).body).toMatchObject({ recipients: 3 });
      expect((await admin.get("/api/v1/audience?segment=999999")).status).toBe(404);
      await admin.delete(`${SEGMENTS}/${saved.id}`);
    });

    it("sends to an expression written for the send (text or tree), and the quick publish takes X-Segment", async () => {
      const res = await script.post(NOTIFICATIONS, { title: "Só VIP", audience: { type: "segment", expression: VIP, tagKinds: "trusted" } });
      expect(res.body).toMatchObject({ targeted: 1, notification: { audience: { type: "segment", segment: null, name: null } } });
      await finished(res.body.notification.id);
      expect(accepted()).toEqual(new Set([fakeIds[2]]));

      fake.reset();
      const text = await script.post(NOTIFICATIONS, { title: "Básico", audience: { type: "segment", expression: "plano = basico" } });
      expect(text.body.targeted).toBe(1);
      await finished(text.body.notification.id);
      expect(accepted()).toEqual(new Set([fakeIds[3]]));

      fake.reset();
      const saved = (await admin.post(SEGMENTS, { name: "Rápido", expression: VIP })).body.segment;
      const quick = await fetch(`${server.url}/p/todos`, { method: "POST", headers: { authorization: `Bearer ${script.defaults.bearer}`, "x-segment": saved.id }, body: "Olá VIP" });
      expect(quick.status).toBe(201);
      const quickBody = (await quick.json()) as { notification: { id: string; audience: unknown } };
      expect(quickBody.notification.audience).toMatchObject({ type: "segment", segment: saved.id });
      await finished(quickBody.notification.id);
      const badHeader = await fetch(`${server.url}/p/todos`, { method: "POST", headers: { authorization: `Bearer ${script.defaults.bearer}`, "x-segment": "abc" }, body: "Olá" });
      expect(await badHeader.json()).toEqual(errorOf("validation_failed", "X-Segment"));
      const onChannel = await fetch(`${server.url}/p/obras`, { method: "POST", headers: { authorization: `Bearer ${script.defaults.bearer}`, "x-segment": saved.id }, body: "Olá" });
      expect(await onChannel.json()).toEqual(errorOf("validation_failed", "X-Segment"));
      expect(accepted()).toEqual(new Set([fakeIds[2]]));
      await admin.delete(`${SEGMENTS}/${saved.id}`);
    });

    it("refuses a transactional segment send, an unknown saved segment, and an audience with both or neither", async () => {
      expect(await script.post(NOTIFICATIONS, { title: "X", category: "transactional", audience: { type: "segment", expression: VIP } })).toMatchObject({
        status: 400,
        body: errorOf("transactional_audience", "category"),
      });
      expect(await script.post(NOTIFICATIONS, { title: "X", audience: { type: "segment", segment: "999999" } })).toMatchObject({
        status: 404,
        body: errorOf("segment_not_found", "audience.segment"),
      });
      expect((await script.post(NOTIFICATIONS, { title: "X", audience: { type: "segment" } })).status).toBe(400);
      expect((await script.post(NOTIFICATIONS, { title: "X", audience: { type: "segment", segment: "1", expression: VIP } })).status).toBe(400);
      expect((await script.post(NOTIFICATIONS, { title: "X", audience: { type: "segment", expression: "plano = = (" } })).body.error.code).toBe("segment_syntax");
    });

    it("resolves a saved segment when a scheduled send goes out: edited after scheduling, the send reaches the edited audience", async () => {
      const saved = (await admin.post(SEGMENTS, { name: "Agendado", expression: PREMIUM })).body.segment;
      const sendAt = new Date(Date.now() + 3_600_000);
      const res = await script.post(NOTIFICATIONS, { title: "Mais tarde", sendAt: sendAt.toISOString(), audience: { type: "segment", segment: saved.id } });
      expect(res.body).toMatchObject({ targeted: 3, notification: { status: "scheduled", audience: { type: "segment", segment: saved.id, expression: null } } });
      expect(await admin.delete(`${SEGMENTS}/${saved.id}`)).toMatchObject({ status: 409, body: errorOf("segment_in_use") });

      expect((await admin.patch(`${SEGMENTS}/${saved.id}`, { expression: "tem vip" })).status).toBe(200);
      const [started] = await createNotificationsRepository(server.database).startDue(sendAt.getTime(), { jobSize: 1000, limit: 5 });
      expect(started).toMatchObject({ id: Number(res.body.notification.id), counts: { queued: 1 } });
      server.delivery.wake();
      await finished(res.body.notification.id);
      expect(accepted()).toEqual(new Set([fakeIds[2]]));
      const shown = (await script.get(`${NOTIFICATIONS}/${res.body.notification.id}`)).body.notification;
      expect(shown.audience).toMatchObject({ type: "segment", segment: saved.id, name: "Agendado" });
      expect(typeof shown.audience.expression).toBe("string");
      // Sent: the segment may go now.
      expect((await admin.delete(`${SEGMENTS}/${saved.id}`)).status).toBe(204);
    });
  });
}
