import type { LookupFunction } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, openTestDatabase, type TestDatabase } from "../../../test/support/db.js";
import { atom, rss, startFeedServer, type FeedServer, type RssItem, type AtomEntry } from "../../../test/support/feed-server.js";
import { loadTestTls } from "../../../test/support/fake-push/test-tls.js";
import { isPublicAddress } from "../../push/address-policy.js";
import type { Database } from "../../store/database.js";
import { createChannelsRepository } from "../../store/channels-repository.js";
import { createFeedsRepository, type FeedsRepository } from "../../store/feeds-repository.js";
import { createFeedFetcher, type FeedFetcher, type FeedFetcherOptions } from "./feed-fetcher.js";
import { createFeedPoller, type FeedPoller, type FeedPollerOptions } from "./feed-poller.js";

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const POLLER: FeedPollerOptions = { tickMs: 60_000, leaseMs: 60_000, jitter: 0.2, maxItemsPerPoll: 5, concurrency: 4 };

const item = (n: number, extra: Partial<RssItem> = {}): RssItem => ({
  guid: `noticia-${n}`,
  title: `Notícia ${n}`,
  link: `https://site.example/noticias/${n}`,
  description: `<p>Resumo da <b>notícia</b> ${n} &amp; mais</p>`,
  ...extra,
});

for (const dialect of DIALECTS) {
  describe(`feed polling on ${dialect}`, () => {
    let database: TestDatabase;
    let feeds: FeedsRepository;
    let server: FeedServer;
    const cleanups: Array<() => Promise<unknown>> = [];

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      feeds = createFeedsRepository(database);
      server = await startFeedServer();
    });
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      await server.close();
      await database.cleanup();
    });

    function fetcher(options: Partial<FeedFetcherOptions> = {}): FeedFetcher {
      const made = createFeedFetcher({ allowPrivateAddresses: true, timeoutMs: 5_000, maxBytes: 1024 * 1024, ...options });
      cleanups.push(() => made.close());
      return made;
    }

    function poller(overrides: { db?: Database; fetcher?: FeedFetcher; options?: Partial<FeedPollerOptions>; id?: string; sent?: number[] } = {}): FeedPoller {
      const db = overrides.db ?? database;
      return createFeedPoller({
        feeds: createFeedsRepository(db),
        channels: createChannelsRepository(db),
        fetcher: overrides.fetcher ?? fetcher(),
        clock: Date.now,
        logger: quiet,
        options: { ...POLLER, ...overrides.options },
        jobSize: 1000,
        publicUrl: "https://sino.example",
        onSent: (send) => overrides.sent?.push(send.id),
        ...(overrides.id === undefined ? {} : { id: overrides.id }),
      });
    }

    async function sends() {
      return database.db.selectFrom("notifications").select(["id", "title", "body", "url", "image", "audience", "payload"]).orderBy("id").execute();
    }

    async function itemsOf(feedId: number) {
      return (await feeds.listItems(feedId, { page: 1, pageSize: 100 })).items;
    }

    async function aFeed(path: string, mode: "auto" | "draft" = "auto", channelId: number | null = null) {
      return (await feeds.create({ url: `${server.origin}${path}`, channelId, mode, intervalSeconds: 60 }, Date.now(), 50))!;
    }

    it("RSS 2.0: the first poll marks existing items as seen, a new item is sent once with title, summary, link and image", async () => {
      let items = [item(2), item(1)];
      server.route("/rss.xml", () => ({ body: rss("Prefeitura", items) }));
      const feed = await aFeed("/rss.xml");
      const sent: number[] = [];
      const p = poller({ sent });

      await p.pollNow();
      expect(await sends()).toEqual([]);
      expect((await itemsOf(feed.id)).map((i) => [i.key, i.status])).toEqual([
        ["noticia-1", "seen"],
        ["noticia-2", "seen"],
      ]);
      let state = (await feeds.findById(feed.id))!;
      expect(state).toMatchObject({ primed: true, polls: 1, itemsFound: 0, errors: 0, lastError: null, title: "Prefeitura" });
      expect(state.lastSuccessAt).not.toBeNull();
      // The next poll is an interval away, with up to 20 % jitter.
      expect(state.nextPollAt - state.lastPolledAt!).toBeGreaterThanOrEqual(60_000);
      expect(state.nextPollAt - state.lastPolledAt!).toBeLessThanOrEqual(72_000);

      // Not due: nothing is fetched.
      await p.pollNow();
      expect(server.requests).toHaveLength(1);

      items = [item(3, { image: "https://site.example/img/3.jpg", description: `<p>${"Palavra ".repeat(80)}</p>` }), item(2), item(1)];
      await feeds.pollSoon(feed.id, Date.now());
      await p.pollNow();
      const [send] = await sends();
      expect(await sends()).toHaveLength(1);
      expect(sent).toEqual([send!.id]);
      expect(send).toMatchObject({ title: "Notícia 3", url: "https://site.example/noticias/3", image: "https://site.example/img/3.jpg" });
      expect(send!.body!.length).toBeLessThanOrEqual(300);
      expect(send!.body!.endsWith("…")).toBe(true);
      expect(send!.body!.startsWith("Palavra Palavra")).toBe(true);
      expect(JSON.parse(send!.audience)).toEqual({ kind: "everyone" });
      state = (await feeds.findById(feed.id))!;
      expect(state).toMatchObject({ polls: 2, itemsFound: 1 });
      expect((await itemsOf(feed.id))[0]).toMatchObject({ key: "noticia-3", status: "sent", notificationId: send!.id });

      // The same feed again: nothing new, nothing sent again.
      await feeds.pollSoon(feed.id, Date.now());
      await p.pollNow();
      expect(await sends()).toHaveLength(1);
      expect((await feeds.findById(feed.id))!.polls).toBe(3);
    });

    it("Atom: items keyed by id, images from media:content, HTML summaries as plain text, to a channel", async () => {
      const channels = createChannelsRepository(database);
      const channel = await channels.create({ slug: "noticias", name: "Notícias", description: null, isDefault: false }, Date.now());
      if (channel === "slug_taken") throw new Error("slug taken");
      let entries: AtomEntry[] = [{ id: "urn:a", title: "Primeira", link: "https://site.example/a" }];
      server.route("/atom.xml", () => ({ body: atom("Diário", entries), headers: { "content-type": "application/atom+xml" } }));
      const feed = await aFeed("/atom.xml", "auto", channel.id);
      const p = poller();
      await p.pollNow();
      entries = [{ id: "urn:b", title: "Segunda", link: "https://site.example/b", summary: "<p>Olá &amp; <i>bem-vindo</i></p>", image: "https://site.example/b.png" }, ...entries];
      await feeds.pollSoon(feed.id, Date.now());
      await p.pollNow();
      const all = await sends();
      expect(all).toHaveLength(1);
      expect(all[0]).toMatchObject({ title: "Segunda", body: "Olá & bem-vindo", url: "https://site.example/b", image: "https://site.example/b.png" });
      expect(JSON.parse(all[0]!.audience)).toMatchObject({ kind: "channels", channels: [channel.id] });
    });

    it("sends If-None-Match / If-Modified-Since and takes a 304 as a successful poll with nothing new", async () => {
      server.route("/rss.xml", (req) =>
        req.headers["if-none-match"] === '"v1"' ? { status: 304 } : { body: rss("S", [item(1)]), headers: { etag: '"v1"', "last-modified": "Wed, 25 Nov 2026 10:00:00 GMT" } },
      );
      const feed = await aFeed("/rss.xml");
      const p = poller();
      await p.pollNow();
      await feeds.pollSoon(feed.id, Date.now());
      await p.pollNow();
      expect(server.requests[0]!.headers["if-none-match"]).toBeUndefined();
      expect(server.requests[1]!.headers).toMatchObject({ "if-none-match": '"v1"', "if-modified-since": "Wed, 25 Nov 2026 10:00:00 GMT" });
      expect(await feeds.findById(feed.id)).toMatchObject({ polls: 2, errors: 0, lastError: null, itemsFound: 0 });
      // The validators survive a 304 for the poll after.
      await feeds.pollSoon(feed.id, Date.now());
      await p.pollNow();
      expect(server.requests[2]!.headers["if-none-match"]).toBe('"v1"');
      expect(await sends()).toEqual([]);
    });

    it("records malformed XML as a poll error, sends nothing, and recovers on the next good answer", async () => {
      let body = "<rss><channel><title>x</title><item><title>quebrado</channel></rss>";
      server.route("/rss.xml", () => ({ body }));
      const feed = await aFeed("/rss.xml");
      const p = poller();
      await p.pollNow();
      let state = (await feeds.findById(feed.id))!;
      expect(state).toMatchObject({ polls: 1, errors: 1, lastError: "feed_malformed", primed: false, lastSuccessAt: null });
      expect(state.lastErrorAt).not.toBeNull();
      body = rss("ok", [item(1)]);
      await feeds.pollSoon(feed.id, Date.now());
      await p.pollNow();
      state = (await feeds.findById(feed.id))!;
      expect(state).toMatchObject({ polls: 2, errors: 1, lastError: null, primed: true });
      expect(await sends()).toEqual([]);
    });

    it("refuses a huge response at the size cap without reading it all, and a slow one at the deadline", async () => {
      server.route("/huge.xml", () => ({ streamBytes: 50 * 1024 * 1024 }));
      server.route("/declared.xml", () => ({ body: Buffer.alloc(300 * 1024, 32) }));
      server.route("/slow.xml", () => ({ body: rss("x", []), delayMs: 2_000 }));
      const huge = await aFeed("/huge.xml");
      const declared = await aFeed("/declared.xml");
      const slow = await aFeed("/slow.xml");
      const started = Date.now();
      await poller({ fetcher: fetcher({ maxBytes: 256 * 1024, timeoutMs: 1_000 }) }).pollNow();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await feeds.findById(huge.id)).toMatchObject({ errors: 1, lastError: "feed_too_large" });
      expect(await feeds.findById(declared.id)).toMatchObject({ errors: 1, lastError: "feed_too_large" });
      expect(await feeds.findById(slow.id)).toMatchObject({ errors: 1, lastError: "feed_timeout" });
    });

    it("draft mode: new items wait for an operator; approve sends once, dismiss sends nothing", async () => {
      let items = [item(1)];
      server.route("/rss.xml", () => ({ body: rss("S", items) }));
      const feed = await aFeed("/rss.xml", "draft");
      const p = poller();
      await p.pollNow();
      items = [item(3), item(2), item(1)];
      await feeds.pollSoon(feed.id, Date.now());
      await p.pollNow();
      expect(await sends()).toEqual([]);
      expect(await feeds.findById(feed.id)).toMatchObject({ pending: 2, itemsFound: 2 });
      const pending = (await feeds.listItems(feed.id, { status: "pending", page: 1, pageSize: 10 })).items;
      expect(pending.map((i) => i.key)).toEqual(["noticia-3", "noticia-2"]);
      const { feedItemNotification } = await import("./feed-notification.js");
      const { feedItemNotificationOptions } = await import("./feed-poller.js");
      const approve = () =>
        feeds.approve(feed.id, pending[0]!.id, (it) => {
          const notification = feedItemNotification(it, null, undefined, null);
          return { notification, options: feedItemNotificationOptions(notification, Date.now(), 1000, undefined) };
        }, Date.now());
      const [first, second] = await Promise.all([approve(), approve()]);
      expect([first, second].filter((o) => typeof o === "object" && o.kind === "sent")).toHaveLength(1);
      expect([first, second]).toContain("not_pending");
      expect(await feeds.dismiss(feed.id, pending[1]!.id, Date.now())).toMatchObject({ kind: "dismissed" });
      expect(await feeds.dismiss(feed.id, pending[1]!.id, Date.now())).toBe("not_pending");
      expect((await sends()).map((s) => s.title)).toEqual(["Notícia 3"]);
      expect(await feeds.findById(feed.id)).toMatchObject({ pending: 0 });
    });

    it("publishes at most maxItemsPerPoll new items, the newest; older ones are recorded as skipped", async () => {
      let items = [item(1)];
      server.route("/rss.xml", () => ({ body: rss("S", items) }));
      const feed = await aFeed("/rss.xml");
      const p = poller({ options: { maxItemsPerPoll: 2 } });
      await p.pollNow();
      items = [item(5), item(4), item(3), item(2), item(1)];
      await feeds.pollSoon(feed.id, Date.now());
      await p.pollNow();
      expect((await sends()).map((s) => s.title)).toEqual(["Notícia 4", "Notícia 5"]);
      const statuses = Object.fromEntries((await itemsOf(feed.id)).map((i) => [i.key, i.status]));
      expect(statuses).toEqual({ "noticia-1": "seen", "noticia-2": "skipped", "noticia-3": "skipped", "noticia-4": "sent", "noticia-5": "sent" });
    });

    it("keys items by link when they have no guid", async () => {
      let items: RssItem[] = [{ title: "Sem guid", link: "https://site.example/x" }];
      server.route("/rss.xml", () => ({ body: rss("S", items) }));
      const feed = await aFeed("/rss.xml");
      const p = poller();
      await p.pollNow();
      items = [{ title: "Outra", link: "https://site.example/y" }, { title: "Sem guid (título editado)", link: "https://site.example/x" }];
      await feeds.pollSoon(feed.id, Date.now());
      await p.pollNow();
      expect((await sends()).map((s) => s.title)).toEqual(["Outra"]);
    });

    it("two workers polling the same feed at once, even past their leases, send a new item once", async () => {
      let items = [item(1)];
      server.route("/rss.xml", () => ({ body: rss("S", items), delayMs: 150 }));
      const feed = await aFeed("/rss.xml");
      const dbA = openTestDatabase(database.location);
      const dbB = openTestDatabase(database.location);
      cleanups.push(() => dbA.destroy(), () => dbB.destroy());
      // A lease of 1 ms runs out before the fetch answers: both workers claim and poll the feed.
      const a = poller({ db: dbA, id: "worker-a", options: { leaseMs: 1 } });
      const b = poller({ db: dbB, id: "worker-b", options: { leaseMs: 1 } });
      const both = async () => {
        await feeds.pollSoon(feed.id, Date.now());
        await Promise.all([a.pollNow(), new Promise((r) => setTimeout(r, 20)).then(() => b.pollNow())]);
      };
      await both();
      items = [item(3), item(2), item(1)];
      const before = server.requests.length;
      await both();
      expect(server.requests.length - before).toBe(2);
      expect((await sends()).map((s) => s.title)).toEqual(["Notícia 2", "Notícia 3"]);
      expect((await itemsOf(feed.id)).filter((i) => i.status === "sent")).toHaveLength(2);

      // With an ordinary lease, only one of them polls.
      items = [item(4), ...items];
      const again = server.requests.length;
      const a2 = poller({ db: dbA, id: "worker-a2" });
      const b2 = poller({ db: dbB, id: "worker-b2" });
      await feeds.pollSoon(feed.id, Date.now());
      await Promise.all([a2.pollNow(), b2.pollNow()]);
      expect(server.requests.length - again).toBe(1);
      expect((await sends()).map((s) => s.title)).toEqual(["Notícia 2", "Notícia 3", "Notícia 4"]);
    });
  });
}

describe("the feed fetcher's address guard (allow-private off)", () => {
  let server: FeedServer;
  const tls = loadTestTls();
  const closers: FeedFetcher[] = [];
  beforeEach(async () => {
    server = await startFeedServer({ https: true });
    server.route("/rss.xml", () => ({ body: rss("S", [item(1)]) }));
  });
  afterEach(async () => {
    for (const f of closers.splice(0)) await f.close();
    await server.close();
  });
  const toAddress = (address: string): LookupFunction => (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  };
  function guarded(options: Partial<FeedFetcherOptions> = {}): FeedFetcher {
    // The test's own server (127.0.0.1) stands in for a public site; every other private address is refused.
    const f = createFeedFetcher({ allowPrivateAddresses: false, isAllowedAddress: (ip) => ip === "127.0.0.1" || isPublicAddress(ip), timeoutMs: 3_000, maxBytes: 1024 * 1024, ca: tls.ca, ...options });
    closers.push(f);
    return f;
  }
  const none = { etag: null, lastModified: null };

  it("fetches the allowed https feed", async () => {
    expect(await guarded().fetch(`${server.origin}/rss.xml`, none)).toMatchObject({ kind: "fetched" });
  });

  it("refuses redirects to private addresses, to localhost, to http, and to a name that resolves privately", async () => {
    const port = new URL(server.origin).port;
    const targets = ["https://10.0.0.7/feed.xml", `https://localhost:${port}/rss.xml`, `http://127.0.0.1:${port}/rss.xml`, `https://intranet.example:${port}/rss.xml`, "https://[::1]/rss.xml"];
    targets.forEach((target, i) => server.route(`/r${i}`, () => ({ status: 302, headers: { location: target } })));
    const f = guarded({ resolveHost: async () => ["192.168.0.10"] });
    for (const [i] of targets.entries()) {
      await expect(f.fetch(`${server.origin}/r${i}`, none)).rejects.toMatchObject({ code: "feed_redirect_refused" });
    }
    expect(server.requests.map((r) => r.path)).toEqual(targets.map((_, i) => `/r${i}`));
  });

  it("refuses a connection whose name resolves to a private address at connect time (DNS rebinding)", async () => {
    const port = new URL(server.origin).port;
    server.route("/hop", () => ({ status: 301, headers: { location: `https://feeds.example:${port}/rss.xml` } }));
    // The redirect check sees a public address; the connection then resolves to 127.0.0.2.
    const f = guarded({ resolveHost: async () => ["93.184.216.34"], lookup: toAddress("127.0.0.2") });
    await expect(f.fetch(`${server.origin}/hop`, none)).rejects.toMatchObject({ code: "feed_blocked_address" });
  });

  it("with the default policy, the local server itself is a private address and is refused", async () => {
    const f = createFeedFetcher({ allowPrivateAddresses: false, timeoutMs: 3_000, maxBytes: 1024, ca: tls.ca });
    closers.push(f);
    await expect(f.fetch(`${server.origin}/rss.xml`, none)).rejects.toMatchObject({ code: "feed_blocked_address" });
    // A name that resolves to it is refused too, at connection time (no check by URL can see it).
    const byName = createFeedFetcher({ allowPrivateAddresses: false, timeoutMs: 3_000, maxBytes: 1024, ca: tls.ca, resolveHost: async () => ["93.184.216.34"], lookup: toAddress("127.0.0.1") });
    closers.push(byName);
    await expect(byName.fetch(`https://feeds.example:${new URL(server.origin).port}/rss.xml`, none)).rejects.toMatchObject({ code: "feed_blocked_address" });
    // An http URL stored while private addresses were allowed is refused once they are not.
    await expect(f.fetch("http://93.184.216.34/feed", none)).rejects.toMatchObject({ code: "feed_url_refused" });
    expect(server.requests).toHaveLength(0);
  });
});
