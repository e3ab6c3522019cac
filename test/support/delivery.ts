import type { Database } from "../../src/store/database.js";
import type { NewNotification, Notification } from "../../src/store/notifications-repository.js";
import { subscriberKeysFor } from "./fake-push/keys.js";

/** What the fake push service needs to know a seeded subscription by. */
export interface FakeEndpoints {
  readonly keySeed: string;
  endpointFor(id: string): string;
}

/**
 * Inserts `count` subscriptions whose endpoints point at the fake push service as `<prefix><n>`,
 * with the keys the fake derives on its own (real P-256 keys). Bulk inserts: 20,000 take seconds.
 * Returns the fake ids in subscription-id order.
 */
export async function seedSubscriptions(database: Database, fake: FakeEndpoints, count: number, prefix = "s"): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const now = Date.now();
  const chunk = 500;
  for (let i = 0; i < ids.length; i += chunk) {
    const rows = ids.slice(i, i + chunk).map((id) => {
      const keys = subscriberKeysFor(fake.keySeed, id);
      return {
        endpoint: fake.endpointFor(id),
        p256dh: keys.p256dh.toString("base64url"),
        auth: keys.auth.toString("base64url"),
        user_agent: null,
        created_at: now,
        updated_at: now,
        last_seen_at: now,
      };
    });
    await database.db.insertInto("subscriptions").values(rows).execute();
  }
  return ids;
}

/** Polls the notification until `done` holds (no timed assertion: the test's own timeout bounds it). */
export async function waitForNotification(
  read: () => Promise<Notification | undefined>,
  done: (send: Notification) => boolean = (send) => send.status === "completed" || send.status === "failed" || send.status === "no_recipients",
  intervalMs = 20,
): Promise<Notification> {
  for (;;) {
    const send = await read();
    if (send !== undefined && done(send)) return send;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A clock the test can move forward, on top of real time (leases keep working). */
export function createSteppingClock(): { now: () => number; advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      offset += ms;
    },
  };
}

/** A notification to everyone as the repositories store it; tests override what they look at. */
export function aNewNotification(overrides: Partial<NewNotification> = {}): NewNotification {
  return {
    title: "t",
    body: null,
    icon: null,
    image: null,
    badge: null,
    tag: undefined,
    url: null,
    urgency: null,
    ttlSeconds: 3600,
    topic: null,
    audience: { kind: "everyone" },
    ...overrides,
  };
}

/**
 * Inserts `count` subscriptions that are only rows (endpoints `https://push.example.com/<n>` from
 * `from`, dummy keys): for queue and scheduler tests that never reach a push service.
 */
export async function insertPlaceholderSubscriptions(database: Database, count: number, from = 0): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => ({
    endpoint: `https://push.example.com/${from + i}`,
    p256dh: "k",
    auth: "a",
    user_agent: null,
    created_at: 0,
    updated_at: 0,
    last_seen_at: 0,
  }));
  await database.db.insertInto("subscriptions").values(rows).execute();
}

/**
 * 30 subscriptions on the fake push service; every third is a person's, in turn p0, p1, p2, p3:
 * p0 has s0, s12, s24; p1 s3, s15, s27; p2 s6, s18; p3 s9, s21. Returns the fake ids and the
 * subscription ids, both in subscription-id order.
 */
export async function seedFourPeople(database: Database, fake: FakeEndpoints): Promise<{ fakeIds: string[]; ids: number[] }> {
  const fakeIds = await seedSubscriptions(database, fake, 30);
  const ids = (await database.db.selectFrom("subscriptions").select("id").orderBy("id").execute()).map((row) => Number(row.id));
  for (let i = 0; i < 30; i += 3) {
    await database.db
      .updateTable("subscriptions")
      .set({ person_id: `p${(i / 3) % 4}` })
      .where("id", "=", ids[i]!)
      .execute();
  }
  return { fakeIds, ids };
}
