/**
 * The delivery rules through the API on SQLite and PostgreSQL: `exempt` is an admin's (403
 * `exempt_admin_only` for a publisher, on create and on a scheduled send's edit, storing
 * nothing), `reengagement` anyone's; GET /audience says how many are at their cap and sleeping;
 * the send's presentation counts them, adding up to `queued`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../../../test/support/fake-push/test-tls.js";
import type { ApiClient} from "../../../../test/support/operators.js";
import { addUser, errorOf, setUpAdmin } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";

const NOTIFICATIONS = "/api/v1/notifications";
const ENV = {
  SINO_PUSH_CA_FILE: loadTestTls().caPath,
  SINO_WORKER_POLL_MS: "50",
  SINO_ENCRYPTION_THREADS: "1",
  SINO_PUSH_TIMEOUT_MS: "5000",
  SINO_FREQUENCY_CAP: "3",
  SINO_SLEEPING_DAYS: "30",
};
const DAY = 86_400_000;

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake.close();
});

for (const dialect of DIALECTS) {
  describe(`delivery rules API on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    let publisher: ApiClient;
    const client = () => ({ url: server.url, origin: server.url });
    const sendCount = async () => Number((await server.database.db.selectFrom("notifications").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    const later = () => new Date(Date.now() + 3 * 3_600_000).toISOString();

    beforeAll(async () => {
      server = await startTestServer({ dialect, env: ENV });
      admin = await setUpAdmin(client());
      publisher = (await addUser(admin, "publisher")).client;
      await seedSubscriptions(server.database, fake, 4, `${dialect}-gates-`);
      const first = await server.database.db.selectFrom("subscriptions").select("id").orderBy("id").limit(1).executeTakeFirstOrThrow();
      // Sleeping: made 40 days ago, no click, no visit.
      await server.database.db.updateTable("subscriptions").set({ created_at: Date.now() - 40 * DAY }).where("id", "=", first.id).execute();
    });
    afterAll(async () => {
      await server.close();
    });

    it("refuses `exempt` to a publisher (403), storing nothing, and takes it from an admin", async () => {
      const before = await sendCount();
      const refused = await publisher.post(NOTIFICATIONS, { title: "Urgente", exempt: true, sendAt: later() });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(errorOf("exempt_admin_only", "exempt"));
      expect(await sendCount()).toBe(before);

      const taken = await admin.post(NOTIFICATIONS, { title: "Urgente", exempt: true, sendAt: later() });
      expect(taken.status).toBe(201);
      expect(taken.body.notification).toMatchObject({ exempt: true, reengagement: false, counts: { limited: 0, asleep: 0 } });
      const id = taken.body.notification.id as string;
      // A publisher may neither make a scheduled send exempt nor edit one that is.
      expect((await publisher.patch(`${NOTIFICATIONS}/${id}`, { title: "Editado" })).status).toBe(403);
      const own = await publisher.post(NOTIFICATIONS, { title: "Volte", reengagement: true, sendAt: later() });
      expect(own.status).toBe(201);
      expect(own.body.notification).toMatchObject({ exempt: false, reengagement: true });
      const made = await publisher.patch(`${NOTIFICATIONS}/${own.body.notification.id as string}`, { exempt: true });
      expect(made.status).toBe(403);
      expect(made.body).toEqual(errorOf("exempt_admin_only", "exempt"));
      const edited = await admin.patch(`${NOTIFICATIONS}/${own.body.notification.id as string}`, { exempt: true });
      expect(edited.status).toBe(200);
      expect(edited.body.notification).toMatchObject({ exempt: true, reengagement: true });
      for (const sent of [id, own.body.notification.id as string]) expect((await admin.post(`${NOTIFICATIONS}/${sent}/cancel`, {})).status).toBeLessThan(300);
    });

    it("counts who is at the cap and who sleeps in GET /audience, and in the send's counts", async () => {
      expect((await publisher.get("/api/v1/audience")).body).toMatchObject({ recipients: 4, limited: 0, asleep: 1 });
      for (let i = 0; i < 3; i++) {
        const created = await publisher.post(NOTIFICATIONS, { title: `Oferta ${i + 1}` });
        const done = await waitForNotification(() => server.delivery.getNotification(Number(created.body.notification.id)));
        expect(done.counts).toMatchObject({ queued: 4, accepted: 3, asleep: 1, limited: 0 });
      }
      expect((await publisher.get("/api/v1/audience")).body).toMatchObject({ recipients: 4, limited: 3, asleep: 1 });

      const fourth = await publisher.post(NOTIFICATIONS, { title: "Oferta 4" });
      const id = Number(fourth.body.notification.id);
      await waitForNotification(() => server.delivery.getNotification(id));
      const read = (await publisher.get(`${NOTIFICATIONS}/${id}`)).body.notification;
      expect(read).toMatchObject({ status: "completed", counts: { queued: 4, accepted: 0, failed: 0, removed: 0, limited: 3, asleep: 1 } });
      const recipients = (await publisher.get(`${NOTIFICATIONS}/${id}/recipients`)).body.recipients as { outcome: string }[];
      expect(recipients.map((r) => r.outcome).sort()).toEqual(["asleep", "limited", "limited", "limited"]);

      // The admin's breaking news goes to everyone.
      const exempt = await admin.post(NOTIFICATIONS, { title: "Urgente: rua interditada", exempt: true });
      const done = await waitForNotification(() => server.delivery.getNotification(Number(exempt.body.notification.id)));
      expect(done.counts).toMatchObject({ queued: 4, accepted: 4, limited: 0, asleep: 0 });
    });
  });
}
