import { describe, expect, it } from "vitest";
import type { DeliveryTarget } from "../../store/delivery-queue-repository.js";
import type { Notification } from "../../store/notifications-repository.js";
import { insideDailyWindow, parseDailyWindow } from "../../shared/time/daily-window.js";
import { createLocalTimeGate, type SiteLocalTime } from "./local-time-gate.js";

const HOUR = 3_600_000;
/** 23:00 in São Paulo on 2026-11-26. */
const SP_23H = Date.UTC(2026, 10, 27, 2, 0, 0);

function target(id: number, local: { timeZone?: string | null; quietHours?: string | null; siteId?: number } = {}): DeliveryTarget {
  return { id, endpoint: `https://push.example/${id}`, p256dh: "k", auth: "a", personId: null, siteId: local.siteId ?? 1, declarative: false, timeZone: local.timeZone ?? null, quietHours: local.quietHours ?? null, vapidKeyId: null, lastActiveAt: 0, reengagedAt: null };
}

function send(overrides: Partial<Notification> = {}): Notification {
  return { category: "marketing", exempt: false, ttlSeconds: 86_400, expiresAt: SP_23H + 86_400_000, ...overrides } as Notification;
}

function gate(sites: SiteLocalTime[] = [{ id: 1, timeZone: null, sendWindow: null }]) {
  let reads = 0;
  const created = createLocalTimeGate({
    defaultTimeZone: "America/Sao_Paulo",
    sites: async () => {
      reads++;
      return sites;
    },
    clock: () => SP_23H,
  });
  return { gate: created, reads: () => reads };
}

describe("daily windows", () => {
  it("reads HH:MM-HH:MM and refuses anything else", () => {
    expect(parseDailyWindow("08:00-21:00")).toEqual({ start: 480, end: 1260 });
    expect(parseDailyWindow("22:30-07:15")).toEqual({ start: 1350, end: 435 });
    for (const bad of ["8:00-21:00", "08:00-24:00", "08:60-21:00", "08:00", "08:00–21:00", ""]) expect(parseDailyWindow(bad)).toBeUndefined();
  });

  it("wraps past midnight and treats equal ends as the whole day", () => {
    const night = parseDailyWindow("22:00-07:00")!;
    expect([1320, 1439, 0, 419].map((m) => insideDailyWindow(night, m))).toEqual([true, true, true, true]);
    expect([420, 1319].map((m) => insideDailyWindow(night, m))).toEqual([false, false]);
    expect(insideDailyWindow(parseDailyWindow("00:00-00:00")!, 1000)).toBe(true);
  });
});

describe("the local-time gate", () => {
  it("holds São Paulo at 23h until 08:00 there and sends where it is 10h", async () => {
    const { gate: g } = gate();
    const sorted = await g.sort(send(), [target(1, { timeZone: "America/Sao_Paulo" }), target(2, { timeZone: "Asia/Singapore" }), target(3)], SP_23H);
    expect(sorted.sendable.map((t) => t.id)).toEqual([2]);
    expect(sorted.held?.waiting.map((w) => [w.recipient.id, w.notBefore])).toEqual([
      [1, SP_23H + 9 * HOUR],
      [3, SP_23H + 9 * HOUR],
    ]);
    expect(sorted.held?.expired).toEqual([]);
  });

  it("opens later the same day when the window has not started yet", async () => {
    const { gate: g } = gate();
    // 05:00 in São Paulo.
    const at = SP_23H + 6 * HOUR;
    const sorted = await g.sort(send({ expiresAt: at + 86_400_000 }), [target(1)], at);
    expect(sorted.held?.waiting[0]?.notBefore).toBe(at + 3 * HOUR);
  });

  it("lets quiet hours replace the site's window", async () => {
    const { gate: g } = gate();
    const at = SP_23H + 8.5 * HOUR; // 07:30 in São Paulo
    const sorted = await g.sort(
      send({ expiresAt: at + 86_400_000 }),
      [target(1), target(2, { quietHours: "22:00-07:00" }), target(3, { quietHours: "07:00-09:30" }), target(4, { quietHours: "não sei" })],
      at,
    );
    expect(sorted.sendable.map((t) => t.id)).toEqual([2]);
    expect(sorted.held?.waiting.map((w) => [w.recipient.id, w.notBefore - at])).toEqual([
      [1, 0.5 * HOUR],
      [3, 2 * HOUR],
      [4, 0.5 * HOUR], // unreadable quiet hours: the site's window
    ]);
  });

  it("falls back from an unknown zone to the site's, then the server's", async () => {
    const { gate: g } = gate([
      { id: 1, timeZone: "Asia/Tokyo", sendWindow: "09:00-12:00" },
      { id: 2, timeZone: null, sendWindow: null },
    ]);
    // 23h in São Paulo is 11h in Tokyo: inside site 1's window.
    const sorted = await g.sort(send(), [target(1, { timeZone: "Marte/Olympus" }), target(2, { siteId: 2, timeZone: "Marte/Olympus" })], SP_23H);
    expect(sorted.sendable.map((t) => t.id)).toEqual([1]);
    expect(sorted.held?.waiting.map((w) => w.recipient.id)).toEqual([2]);
  });

  it("drops what the TTL would end before the opening, and everything closed with TTL 0", async () => {
    const { gate: g } = gate();
    const short = await g.sort(send({ ttlSeconds: 3600, expiresAt: SP_23H + HOUR }), [target(1), target(2, { timeZone: "Asia/Singapore" })], SP_23H);
    expect(short.sendable.map((t) => t.id)).toEqual([2]);
    expect(short.held).toEqual({ waiting: [], expired: [expect.objectContaining({ id: 1 })] });
    const zero = await g.sort(send({ ttlSeconds: 0, expiresAt: SP_23H }), [target(1)], SP_23H);
    expect(zero.held?.expired.map((t) => t.id)).toEqual([1]);
  });

  it("never holds transactional or exempt sends, and reads no site for them", async () => {
    const { gate: g, reads } = gate();
    for (const s of [send({ category: "transactional" }), send({ exempt: true })]) {
      const sorted = await g.sort(s, [target(1)], SP_23H);
      expect(sorted).toEqual({ sendable: [target(1)], held: undefined });
    }
    expect(reads()).toBe(0);
  });

  it("reads the sites once for many sub-batches, and again for a site it does not know", async () => {
    const { gate: g, reads } = gate();
    for (let i = 0; i < 5; i++) await g.sort(send(), [target(i)], SP_23H);
    expect(reads()).toBe(1);
    await g.sort(send(), [target(9, { siteId: 7 })], SP_23H);
    expect(reads()).toBe(2);
  });

  it("resolves an opening in a DST zone to the right instant", async () => {
    const { gate: g } = gate();
    // 2026-03-08 is the US spring-forward day: 08:00 in New York is 12:00 UTC (EDT).
    const at = Date.UTC(2026, 2, 8, 5, 0, 0); // 00:00 EST
    const sorted = await g.sort(send({ expiresAt: at + 86_400_000 }), [target(1, { timeZone: "America/New_York" })], at);
    expect(sorted.held?.waiting[0]?.notBefore).toBe(Date.UTC(2026, 2, 8, 12, 0, 0));
  });
});
