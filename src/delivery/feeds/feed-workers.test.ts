import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../test/support/fake-push/fake-push-service.js";
import { rss, startFeedServer, type FeedServer, type RssItem } from "../../../test/support/feed-server.js";
import { fakePushWorkerEnv } from "../../../test/support/worker-env.js";
import { generateVapidKeys } from "../../push/vapid-keys.js";
import { createRepositories, type Repositories } from "../../store/repositories.js";
import { until } from "../../../test/support/until.js";

// Two real `sino worker` processes on one PostgreSQL schema poll the same feed: the first poll
// marks, a new item becomes exactly one notification, delivered once to every subscriber.
const vapidKeys = generateVapidKeys();
/** Worker processes poll on their own schedule: look every 100 ms, for up to a minute. */
const SLOW = { timeoutMs: 60_000, everyMs: 100 };

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService({ decryptSample: 10 });
});
afterAll(async () => {
  await fake.close();
});

describe("feeds polled by two sino worker processes on PostgreSQL", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let repositories: Repositories;
  let site: FeedServer;
  const workers: Array<{ child: ChildProcess; exited: Promise<number | null> }> = [];

  beforeEach(async () => {
    fake.reset();
    database = await createTestDatabase("postgres");
    repositories = createRepositories(database);
    site = await startFeedServer();
  });
  afterEach(async () => {
    for (const { child, exited } of workers.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    }
    await site.close();
    await database.cleanup();
  });

  async function startWorkerProcess(): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "worker"], {
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: database.location.url,
        SINO_DATABASE_SCHEMA: database.location.schema!,
        SINO_DATABASE_POOL_SIZE: "4",
        ...fakePushWorkerEnv(vapidKeys, { lanes: 2, batch: 50 }),
        SINO_FEED_ALLOW_PRIVATE: "true",
        SINO_FEED_TIMEOUT_MS: "3000",
        // A fresh process's first push starts its encryption thread (transpiled by tsx here): on a
        // loaded machine that can outlast the helper's 6 s lease, and the other process would then
        // deliver the job again (the engine's at-least-once on lease expiry, not a second send).
        SINO_LEASE_SECONDS: "60",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(child, "exit").then(([code]) => code as number | null);
    await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      void exited.then((code) => reject(new Error(`sino worker exited (${code}) before it was ready`)));
    });
    workers.push({ child, exited });
  }

  it("marks existing items at the first poll, then sends a new item once, to every subscriber once", async () => {
    const ids = await seedSubscriptions(database, fake, 40);
    let items: RssItem[] = [{ guid: "velha", title: "Notícia velha", link: "https://site.example/velha" }];
    // A slow answer keeps both workers looking at the same moment.
    site.route("/feed", () => ({ body: rss("Site", items), delayMs: 300 }));
    const feed = (await repositories.feeds.create({ url: `${site.origin}/feed`, channelId: null, mode: "auto", intervalSeconds: 60 }, Date.now(), 50))!;
    await Promise.all([startWorkerProcess(), startWorkerProcess()]);

    await until(() => repositories.feeds.findById(feed.id), (f) => f!.primed && f!.lastSuccessAt !== null, SLOW);
    expect(await database.db.selectFrom("notifications").select("id").execute()).toEqual([]);

    items = [{ guid: "nova", title: "Notícia nova", link: "https://site.example/nova", description: "Resumo" }, ...items];
    // Due now for both processes, several times over: each poll finds the item already there.
    for (let round = 0; round < 3; round++) {
      await repositories.feeds.pollSoon(feed.id, Date.now());
      await until(() => repositories.feeds.findById(feed.id), (f) => f!.nextPollAt > Date.now() && f!.polls >= 2 + round, SLOW);
    }
    const sends = await database.db.selectFrom("notifications").select(["id", "title"]).execute();
    expect(sends.map((s) => s.title)).toEqual(["Notícia nova"]);
    const done = await waitForNotification(() => repositories.notifications.findById(Number(sends[0]!.id)));
    expect(done.counts).toMatchObject({ queued: 40, accepted: 40, failed: 0 });
    const stats = fake.stats();
    expect([...stats.acceptedById.keys()].sort()).toEqual([...ids].sort());
    expect(stats.duplicateAcceptances).toBe(0);
    const state = await repositories.feeds.findById(feed.id);
    expect(state).toMatchObject({ itemsFound: 1, errors: 0 });
    // One request per recorded poll: the two processes never polled the feed at the same time.
    expect(site.requests.length).toBe(state!.polls);
  });
});
