/**
 * The service worker's reports: a push Sino really sent (encrypted for this browser's
 * keys, decrypted by the fake push service) is delivered to the real worker through the DevTools
 * protocol; the worker shows it and reports `shown`; the click handler's report runs the same
 * function in the page (a headless browser has no notification to click). Both end
 * up in the notification's results.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useAdminOnFakePush } from "./support/admin-on-fake-push.js";
import { sendNotification, visitorWithBellOn, waitForNotification } from "./support/audience.js";
import { bundleEntry } from "./support/bundle-entry.js";
import { attachCdpPush, listenForShown, shownNotifications } from "./support/cdp-push.js";

const run = useAdminOnFakePush({ decryptSample: 1 });
let eventsBundle: string;
beforeAll(async () => {
  eventsBundle = await bundleEntry("events-entry.ts");
});

describe("notification events", () => {
  it("a shown and a clicked report reach the server and appear in the send's results", async () => {
    const visitor = await visitorWithBellOn(run.browser, run.server, run.fake, "events");
    const { page, context } = visitor;
    try {
      const push = await attachCdpPush(context, page, `${run.server.baseUrl}/`);
      await listenForShown(page);

      const sent = await sendNotification(run.admin.request, run.server, { title: "Vacinação no sábado", body: "Postos abertos das 8h às 17h.", url: "/" });
      await waitForNotification(run.admin.request, run.server, sent.id);
      // What the browser would have decrypted: the payload Sino really sent, with the notification's id.
      const plaintext = run.fake.stats().log.find((entry) => entry.id === "events")?.plaintext;
      expect(plaintext).toBeDefined();
      expect(JSON.parse(plaintext ?? "{}")).toMatchObject({ id: sent.id, title: "Vacinação no sábado" });

      await push.deliver(plaintext ?? "");
      const { notifications } = await shownNotifications(page, 1);
      expect(notifications[0]).toMatchObject({ title: "Vacinação no sábado", data: { notificationId: sent.id } });
      expect(await storedEvents(sent.id, (types) => types.includes("shown"))).toEqual(["shown"]);
      const shown = await waitForNotification(run.admin.request, run.server, sent.id, (n) => countOf(n, "shown") >= 1);
      expect(countOf(shown, "shown")).toBe(1);
      expect(countOf(shown, "clicked")).toBe(0);

      await page.addScriptTag({ content: eventsBundle });
      const reported = await page.evaluate(async () => {
        interface Events {
          createApiClient(options: { baseUrl: string }): unknown;
          reportNotificationEvent(type: string, data: unknown, registration: ServiceWorkerRegistration, api: unknown): Promise<boolean>;
        }
        const { createApiClient, reportNotificationEvent } = (window as unknown as { sinoEvents: Events }).sinoEvents;
        const registration = await navigator.serviceWorker.ready;
        const [notification] = await registration.getNotifications();
        const api = createApiClient({ baseUrl: location.origin });
        // Twice, as a double click would: the server counts it once.
        return [
          await reportNotificationEvent("clicked", notification?.data, registration, api),
          await reportNotificationEvent("clicked", notification?.data, registration, api),
        ];
      });
      expect(reported).toEqual([true, true]);

      expect(await storedEvents(sent.id, (types) => types.includes("clicked"))).toEqual(["clicked", "shown"]);
      const clicked = await waitForNotification(run.admin.request, run.server, sent.id, (n) => countOf(n, "clicked") >= 1);
      expect(clicked.counts).toMatchObject({ accepted: 1, shown: 1, clicked: 1 });
      expect((clicked.counts as unknown as { clickRate: number | null }).clickRate).toBe(1);
      await push.close();
    } finally {
      await context.close();
    }
  });
});

/** The event types stored for the notification (one row per type and subscription), once `ready` holds. */
async function storedEvents(notificationId: string, ready: (types: string[]) => boolean): Promise<string[]> {
  for (;;) {
    const rows = await run.server.database.db
      .selectFrom("notification_events")
      .select("type")
      .where("notification_id", "=", Number(notificationId))
      .execute();
    const types = rows.map((row) => String(row.type)).sort();
    if (ready(types)) return types;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function countOf(notification: { counts: object }, key: "shown" | "clicked"): number {
  const value = (notification.counts as Record<string, unknown>)[key];
  return typeof value === "number" ? value : 0;
}
