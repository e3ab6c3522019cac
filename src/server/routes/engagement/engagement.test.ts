/**
 * Engagement over HTTP on SQLite and PostgreSQL: the subscriber's quiet hours with proof of
 * possession (from a registered site's page too), a site's frequency cap / send window / time
 * zone (admin only, validated, nothing half-stored), the active / sleeping split and the
 * subscribers list's activity filter, with a clock the test moves.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ApiClient, addUser, errorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";
import { aBrowserSubscription } from "../../../../test/support/subscriptions.js";
import { ENGAGEMENT_ROUTES } from "../../../shared/api/engagement.js";
import { API_ROUTES } from "../../../shared/api/routes.js";

const ENV = { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com", SINO_SLEEPING_DAYS: "30" };
const DAY = 86_400_000;

for (const dialect of DIALECTS) {
  describe(`engagement API on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    const clock = Date.UTC(2026, 10, 2, 12);
    const visitor = new ApiClient({ url: "", origin: "" });

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: ENV, now: () => clock });
      admin = await setUpAdmin(server);
      Object.assign(visitor, new ApiClient(server));
    });
    afterAll(async () => {
      await server.close();
    });

    async function subscribe() {
      const subscription = aBrowserSubscription();
      const res = await visitor.post(API_ROUTES.subscriptions, subscription);
      expect(res.status).toBe(201);
      return subscription;
    }

    it("reads and sets quiet hours only with the subscription's auth secret, and refuses a bad range", async () => {
      const s = await subscribe();
      const proof = { endpoint: s.endpoint, auth: s.keys.auth };
      expect((await visitor.post(ENGAGEMENT_ROUTES.quietHoursLookup, proof)).body).toEqual({ quietHours: null });

      const set = await visitor.put(ENGAGEMENT_ROUTES.quietHours, { ...proof, quietHours: "22:00-07:00" });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ quietHours: "22:00-07:00" });
      expect((await visitor.post(ENGAGEMENT_ROUTES.quietHoursLookup, proof)).body).toEqual({ quietHours: "22:00-07:00" });

      const stranger = aBrowserSubscription();
      const wrongAuth = await visitor.put(ENGAGEMENT_ROUTES.quietHours, { ...proof, auth: stranger.keys.auth, quietHours: null });
      expect(wrongAuth.status).toBe(403);
      expect(wrongAuth.body).toEqual(errorOf("subscription_auth_mismatch", "auth"));
      const unknown = await visitor.post(ENGAGEMENT_ROUTES.quietHoursLookup, { endpoint: stranger.endpoint, auth: stranger.keys.auth });
      expect(unknown.status).toBe(404);

      for (const bad of ["22h-7h", "24:00-07:00", "07:00-07:00", "22:00"]) {
        const res = await visitor.put(ENGAGEMENT_ROUTES.quietHours, { ...proof, quietHours: bad });
        expect(res.status, bad).toBe(400);
        expect(res.body.error.code).toBe("quiet_hours_invalid");
      }
      const extra = await visitor.put(ENGAGEMENT_ROUTES.quietHours, { ...proof, quietHours: null, other: 1 });
      expect(extra.status).toBe(400);
      expect((await visitor.post(ENGAGEMENT_ROUTES.quietHoursLookup, proof)).body).toEqual({ quietHours: "22:00-07:00" });

      expect((await visitor.put(ENGAGEMENT_ROUTES.quietHours, { ...proof, quietHours: null })).body).toEqual({ quietHours: null });
    });

    it("answers a registered site's page with CORS on the quiet-hours routes", async () => {
      const created = await admin.post(API_ROUTES.sites, { origin: "https://loja.exemplo.com.br" });
      expect(created.status).toBe(201);
      const s = await subscribe();
      const res = await fetch(server.url + ENGAGEMENT_ROUTES.quietHours, {
        method: "PUT",
        headers: { origin: "https://loja.exemplo.com.br", "content-type": "application/json" },
        body: JSON.stringify({ endpoint: s.endpoint, auth: s.keys.auth, quietHours: "23:30-06:15" }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://loja.exemplo.com.br");
    });

    it("lets an admin set a site's cap, window and zone, validated, with the server's defaults listed", async () => {
      const created = await admin.post(API_ROUTES.sites, { origin: "https://noticias.exemplo.com.br" });
      const id = created.body.site.id as string;
      expect(created.body.site.delivery).toEqual({ frequencyCap: null, sendWindow: null, timeZone: null });

      const set = await admin.patch(`${API_ROUTES.sites}/${id}`, { frequencyCap: 5, sendWindow: "09:00-20:30", timeZone: "America/Manaus" });
      expect(set.status).toBe(200);
      expect(set.body.site.delivery).toEqual({ frequencyCap: 5, sendWindow: "09:00-20:30", timeZone: "America/Manaus" });

      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ frequencyCap: 0 }, "site_frequency_cap_invalid"],
        [{ frequencyCap: 51 }, "site_frequency_cap_invalid"],
        [{ frequencyCap: 2.5 }, "site_frequency_cap_invalid"],
        [{ sendWindow: "8-21" }, "site_send_window_invalid"],
        [{ timeZone: "America/Atlantida" }, "site_time_zone_invalid"],
        // A good cap with a bad zone: nothing of it is stored.
        [{ frequencyCap: 9, timeZone: "Lua/Base_Alfa" }, "site_time_zone_invalid"],
      ];
      for (const [body, code] of refusals) {
        const res = await admin.patch(`${API_ROUTES.sites}/${id}`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe(code);
      }
      const list = await admin.get(API_ROUTES.sites);
      expect(list.body.sites.find((site: { id: string }) => site.id === id).delivery).toEqual({ frequencyCap: 5, sendWindow: "09:00-20:30", timeZone: "America/Manaus" });
      expect(list.body.deliveryDefaults).toEqual({ frequencyCap: 3, sendWindow: "08:00-21:00", timeZone: "America/Sao_Paulo" });

      const back = await admin.patch(`${API_ROUTES.sites}/${id}`, { frequencyCap: null, sendWindow: null, timeZone: null });
      expect(back.body.site.delivery).toEqual({ frequencyCap: null, sendWindow: null, timeZone: null });

      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.patch(`${API_ROUTES.sites}/${id}`, { frequencyCap: 4 })).status).toBe(403);
    });

    it("splits active and sleeping per site, and filters the subscribers list by it", async () => {
      await server.database.db.deleteFrom("subscriptions").execute();
      const stale = await subscribe();
      const fresh = await subscribe();
      // Its last visit 31 days ago (moving the clock that far would end the admin's session).
      await server.database.db.updateTable("subscriptions").set({ created_at: clock - 31 * DAY, last_visit_at: clock - 31 * DAY }).where("endpoint", "=", stale.endpoint).execute();

      const engagement = await admin.get(ENGAGEMENT_ROUTES.engagement);
      expect(engagement.status).toBe(200);
      expect(engagement.body.sleepingDays).toBe(30);
      expect(engagement.body.sites).toEqual([{ siteId: "1", active: 1, sleeping: 1 }]);

      const sleeping = await admin.get(`${API_ROUTES.subscribers}?activity=sleeping`);
      expect(sleeping.body.total).toBe(1);
      expect(sleeping.body.subscribers[0].activity).toMatchObject({ sleeping: true, lastClickedAt: null });
      const active = await admin.get(`${API_ROUTES.subscribers}?activity=active`);
      expect(active.body.total).toBe(1);
      expect(active.body.subscribers[0].activity).toMatchObject({ sleeping: false, lastVisitAt: new Date(clock).toISOString() });
      expect((await admin.get(`${API_ROUTES.subscribers}?activity=dormindo`)).status).toBe(400);

      // The stale browser comes back: one visit wakes it.
      const again = await visitor.post(API_ROUTES.subscriptions, stale);
      expect(again.status).toBe(200);
      expect((await admin.get(`${API_ROUTES.subscribers}?activity=sleeping`)).body.total).toBe(0);
      expect(fresh.endpoint).not.toBe(stale.endpoint);
    });
  });
}
