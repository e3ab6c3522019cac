import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import type { ApiClient } from "../../../../test/support/operators.js";
import { rss, startFeedServer, type FeedServer } from "../../../../test/support/feed-server.js";
import { addToken, addUser, errorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";
import { createFeedFetcher } from "../../../delivery/feeds/feed-fetcher.js";
import { createFeedPoller } from "../../../delivery/feeds/feed-poller.js";
import { createChannelsRepository } from "../../../store/channels-repository.js";
import { createFeedsRepository } from "../../../store/feeds-repository.js";
import { loadConfig } from "../../config.js";

const FEEDS = "/api/v1/feeds";
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe("SINO_FEED_* configuration", () => {
  it("never takes a minimum interval under one minute", () => {
    expect(loadConfig({}).feeds).toMatchObject({ minIntervalSeconds: 60, defaultIntervalSeconds: 300, maxBytes: 2_000_000, timeoutMs: 10_000, allowPrivateAddresses: false });
    expect(() => loadConfig({ SINO_FEED_MIN_INTERVAL_SECONDS: "30" })).toThrow();
    expect(loadConfig({ SINO_FEED_MIN_INTERVAL_SECONDS: "600" }).feeds.defaultIntervalSeconds).toBe(600);
  });
});

for (const dialect of DIALECTS) {
  describe(`feed routes on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;

    describe("with the production URL policy", () => {
      beforeEach(async () => {
        server = await startOperatorServer({ dialect });
        admin = await setUpAdmin(server);
      });
      afterEach(async () => {
        await server.close();
      });

      it("refuses feed URLs that are not https or point at private addresses, bad modes and intervals, unknown channels; nothing stored", async () => {
        const cases: Array<[Record<string, unknown>, string, string?]> = [
          [{ url: "http://93.184.215.14/feed", mode: "auto" }, "feed_url_not_https", "url"],
          [{ url: "nada", mode: "auto" }, "feed_url_invalid", "url"],
          [{ url: "https://127.0.0.1/feed", mode: "auto" }, "feed_url_private_address", "url"],
          [{ url: "https://10.1.2.3/feed", mode: "auto" }, "feed_url_private_address", "url"],
          [{ url: "https://169.254.169.254/latest", mode: "auto" }, "feed_url_private_address", "url"],
          [{ url: "https://localhost/feed", mode: "auto" }, "feed_url_private_address", "url"],
          [{ url: "https://93.184.215.14/feed", mode: "sometimes" }, "feed_mode_invalid", "mode"],
          [{ url: "https://93.184.215.14/feed", mode: "auto", intervalSeconds: 30 }, "feed_interval_invalid", "intervalSeconds"],
          [{ url: "https://93.184.215.14/feed", mode: "auto", channel: "nao-existe" }, "channel_not_found", "channel"],
        ];
        for (const [body, code, field] of cases) {
          const res = await admin.post(FEEDS, body);
          expect([res.status, res.body.error.code, res.body.error.field]).toEqual([400, code, field]);
          expect(res.body).toEqual(errorOf(code, field));
        }
        const unknown = await admin.post(FEEDS, { url: "https://93.184.215.14/feed", mode: "auto", extra: 1 });
        expect(unknown.status).toBe(400);
        expect((await admin.get(FEEDS)).body.feeds).toEqual([]);
      });

      it("is for admins: a publisher and a publish token get 403", async () => {
        const { client: publisher } = await addUser(admin, "publisher");
        expect((await publisher.get(FEEDS)).status).toBe(403);
        expect((await publisher.post(FEEDS, { url: "https://93.184.215.14/feed", mode: "auto" })).status).toBe(403);
        const { secret } = await addToken(admin, "publish");
        const res = await fetch(`${server.url}${FEEDS}`, { headers: { authorization: `Bearer ${secret}` } });
        expect(res.status).toBe(403);
      });
    });

    describe("against a local feed (SINO_FEED_ALLOW_PRIVATE)", () => {
      let site: FeedServer;
      beforeEach(async () => {
        server = await startOperatorServer({ dialect, env: { SINO_FEED_ALLOW_PRIVATE: "true", SINO_FEED_MIN_INTERVAL_SECONDS: "120" } });
        admin = await setUpAdmin(server);
        site = await startFeedServer();
      });
      afterEach(async () => {
        await site.close();
        await server.close();
      });

      function poller() {
        const fetcher = createFeedFetcher({ allowPrivateAddresses: true, timeoutMs: 5_000, maxBytes: 1_000_000 });
        const p = createFeedPoller({
          feeds: createFeedsRepository(server.database),
          channels: createChannelsRepository(server.database),
          fetcher,
          clock: Date.now,
          logger: quiet,
          options: { tickMs: 60_000, leaseMs: 60_000, jitter: 0.2, maxItemsPerPoll: 5, concurrency: 4 },
          jobSize: 1000,
          onSent: () => undefined,
        });
        return { pollNow: () => p.pollNow(), close: () => fetcher.close() };
      }

      it("adds a draft feed for a channel, shows polls, items, a pt-BR error and the last success; approve sends once, dismiss sends nothing", async () => {
        const channel = await admin.post("/api/v1/channels", { slug: "noticias", name: "Notícias" });
        expect(channel.status).toBe(201);
        let body = rss("Prefeitura", [{ guid: "1", title: "Antiga", link: "https://site.example/1" }]);
        site.route("/feed", () => ({ body }));

        expect((await admin.post(FEEDS, { url: `${site.origin}/feed`, mode: "draft", channel: "noticias", intervalSeconds: 60 })).body).toEqual(
          errorOf("feed_interval_invalid", "intervalSeconds"),
        );
        const created = await admin.post(FEEDS, { url: `${site.origin}/feed`, mode: "draft", channel: "noticias" });
        expect(created.status).toBe(201);
        const feed = created.body.feed;
        expect(feed).toMatchObject({ url: `${site.origin}/feed`, mode: "draft", channel: { slug: "noticias", name: "Notícias" }, intervalSeconds: 300, enabled: true, primed: false, polls: 0, lastError: null });
        expect((await admin.get(FEEDS)).body).toMatchObject({ minIntervalSeconds: 120, defaultIntervalSeconds: 300 });

        const p = poller();
        try {
          await p.pollNow();
          let read = (await admin.get(`${FEEDS}/${feed.id}`)).body.feed;
          expect(read).toMatchObject({ title: "Prefeitura", primed: true, polls: 1, itemsFound: 0, errors: 0, lastError: null });
          expect(read.lastSuccessAt).toEqual(expect.any(String));

          body = "<rss><channel><item></rss>";
          expect((await admin.post(`${FEEDS}/${feed.id}/poll`)).status).toBe(202);
          await p.pollNow();
          read = (await admin.get(`${FEEDS}/${feed.id}`)).body.feed;
          expect(read).toMatchObject({ polls: 2, errors: 1, lastError: { code: "feed_malformed", message: "O feed não é um XML válido." } });

          body = rss("Prefeitura", [
            { guid: "3", title: "Nova 3", link: "https://site.example/3", description: "<p>Resumo 3</p>" },
            { guid: "2", title: "Nova 2", link: "https://site.example/2" },
            { guid: "1", title: "Antiga", link: "https://site.example/1" },
          ]);
          await admin.post(`${FEEDS}/${feed.id}/poll`);
          await p.pollNow();
          read = (await admin.get(`${FEEDS}/${feed.id}`)).body.feed;
          expect(read).toMatchObject({ polls: 3, errors: 1, itemsFound: 2, pending: 2, lastError: null });

          const pending = (await admin.get(`${FEEDS}/${feed.id}/items?status=pending`)).body;
          expect(pending.items.map((i: { title: string }) => i.title)).toEqual(["Nova 3", "Nova 2"]);
          const all = (await admin.get(`${FEEDS}/${feed.id}/items`)).body;
          expect(all.total).toBe(3);
          const [three, two] = pending.items;

          const approved = await admin.post(`${FEEDS}/${feed.id}/items/${three.id}/approve`);
          expect(approved.status).toBe(201);
          expect(approved.body.item).toMatchObject({ status: "sent", notificationId: expect.any(String) });
          expect(await admin.post(`${FEEDS}/${feed.id}/items/${three.id}/approve`)).toMatchObject({ status: 409, body: errorOf("feed_item_not_pending") });
          const send = await server.database.db.selectFrom("notifications").select(["title", "body", "url", "audience", "status"]).where("id", "=", Number(approved.body.item.notificationId)).executeTakeFirstOrThrow();
          expect(send).toMatchObject({ title: "Nova 3", body: "Resumo 3", url: "https://site.example/3" });
          expect(JSON.parse(send.audience)).toMatchObject({ kind: "channels", slugs: ["noticias"] });

          expect((await admin.post(`${FEEDS}/${feed.id}/items/${two.id}/dismiss`)).body.item).toMatchObject({ status: "dismissed", notificationId: null });
          expect(await admin.post(`${FEEDS}/${feed.id}/items/${two.id}/approve`)).toMatchObject({ status: 409 });
          expect(await admin.post(`${FEEDS}/${feed.id}/items/99999/approve`)).toMatchObject({ status: 404, body: errorOf("feed_item_not_found") });
          const sends = await server.database.db.selectFrom("notifications").select("title").execute();
          expect(sends.map((s) => s.title)).toEqual(["Nova 3"]);

          const paused = await admin.patch(`${FEEDS}/${feed.id}`, { enabled: false, mode: "auto", channel: null, intervalSeconds: 600 });
          expect(paused.body.feed).toMatchObject({ enabled: false, mode: "auto", channel: null, intervalSeconds: 600 });
          expect((await admin.delete(`${FEEDS}/${feed.id}`)).status).toBe(204);
          expect(await admin.get(`${FEEDS}/${feed.id}`)).toMatchObject({ status: 404, body: errorOf("feed_not_found") });
          // The send stays.
          expect(await server.database.db.selectFrom("notifications").select("title").execute()).toHaveLength(1);
        } finally {
          await p.close();
        }
      });
    });
  });
}
