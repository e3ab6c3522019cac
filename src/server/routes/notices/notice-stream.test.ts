import Fastify, { type FastifyInstance } from "fastify";
import type { AddressInfo } from "node:net";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../../../../test/support/db.js";
import { errorOf, limitErrorOf, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";
import { payloadFor } from "../../../delivery/notification-input.js";
import { createChannelsRepository } from "../../../store/channels-repository.js";
import { createNoticesRepository, type NoticesRepository } from "../../../store/notices-repository.js";
import { createNotificationsRepository } from "../../../store/notifications-repository.js";
import { errorBody, toApiError } from "../../errors.js";
import { createTranslator } from "../../i18n.js";
import { registerNoticeRoutes } from "./notices.js";

const STREAM = "/api/v1/notices/stream";

/** An open event stream: the text read so far, and a way to wait for more. */
interface OpenStream {
  text: string;
  waitFor(fragment: string): Promise<void>;
  close(): void;
}

async function openStream(url: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (response.status !== 200) throw new Error(`stream refused: ${response.status}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const stream: OpenStream = {
    text: "",
    async waitFor(fragment) {
      while (!stream.text.includes(fragment)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        stream.text += decoder.decode(value, { stream: true });
      }
    },
    close: () => controller.abort(),
  };
  await stream.waitFor("retry:");
  return stream;
}

async function storeSend(database: TestDatabase, title: string) {
  const input = { title, body: null, icon: null, image: null, badge: null, tag: undefined, url: null, urgency: null, ttlSeconds: 60, topic: null, audience: { kind: "everyone" as const } };
  return createNotificationsRepository(database).createWithJobs(input, { now: Date.now(), jobSize: 1000, payloadFor: ({ id, tag }) => payloadFor(input, tag, String(id)) });
}

for (const dialect of DIALECTS) {
  describe(`the notice stream's shared poll on ${dialect}`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let url: string;
    let listCalls: number;
    let tick: () => void;
    let ticking: boolean;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      const real = createNoticesRepository(database);
      listCalls = 0;
      // The real repository on a real database, with its queries counted.
      // (Counted when they answer: a poll is over then, and the next tick is not skipped.)
      const counted: NoticesRepository = {
        list: async (query) => {
          const rows = await real.list(query);
          listCalls += 1;
          return rows;
        },
        withdrawnSince: (since, limit) => real.withdrawnSince(since, limit),
      };
      const translator = createTranslator();
      app = Fastify({ forceCloseConnections: true });
      app.setValidatorCompiler(validatorCompiler);
      app.setSerializerCompiler(serializerCompiler);
      app.setErrorHandler((error, _request, reply) => {
        const api = toApiError(error);
        return reply.code(api.statusCode).send(errorBody(translator, api.code));
      });
      registerNoticeRoutes(app, {
        notices: counted,
        channels: createChannelsRepository(database),
        translator,
        streamLimits: { maxTotal: 100, maxPerAddress: 100 },
        // The test says when an interval has passed.
        streamTicker: (poll) => {
          tick = poll;
          ticking = true;
          return () => {
            ticking = false;
            tick = () => undefined;
          };
        },
      });
      await app.listen({ host: "127.0.0.1", port: 0 });
      url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      await app.close();
      await database.cleanup();
    });

    it("polls the database once per interval for any number of listeners, and delivers to each", async () => {
      const streams = await Promise.all(Array.from({ length: 8 }, () => openStream(url + STREAM)));
      const before = listCalls;
      const send = await storeSend(database, "Para todos os ouvintes");
      tick();
      await Promise.all(streams.map((s) => s.waitFor(`id: ${send.id}\n`)));
      // One poll that found the notice: one list query, not one per listener.
      expect(listCalls - before).toBe(1);
      for (const expected of [2, 3]) {
        tick();
        await expect.poll(() => listCalls - before).toBe(expected);
      }
      for (const s of streams) expect(s.text.match(/event: notice\n/g)).toHaveLength(1);
      // Nobody listening any more: the shared poll stops.
      for (const s of streams) s.close();
      await expect.poll(() => ticking).toBe(false);
    });
  });

  describe(`withdrawn notices on the stream on ${dialect}`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    let url: string;
    let tick: () => void;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      const translator = createTranslator();
      app = Fastify({ forceCloseConnections: true });
      app.setValidatorCompiler(validatorCompiler);
      app.setSerializerCompiler(serializerCompiler);
      registerNoticeRoutes(app, {
        notices: createNoticesRepository(database),
        channels: createChannelsRepository(database),
        translator,
        streamLimits: { maxTotal: 100, maxPerAddress: 100 },
        streamTicker: (poll) => {
          tick = poll;
          return () => (tick = () => undefined);
        },
      });
      await app.listen({ host: "127.0.0.1", port: 0 });
      url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      await app.close();
      await database.cleanup();
    });

    it("tells every stream of the notice's channels, once, that a send left Avisos, and the others nothing", async () => {
      const channels = createChannelsRepository(database);
      const obras = await channels.create({ slug: "obras", name: "Obras", description: null, isDefault: false }, Date.now());
      await channels.create({ slug: "eventos", name: "Eventos", description: null, isDefault: false }, Date.now());
      if (obras === "slug_taken") throw new Error("slug taken");
      const notifications = createNotificationsRepository(database);
      const input = { title: "Rua fechada", body: null, icon: null, image: null, badge: null, tag: undefined, url: null, urgency: null, ttlSeconds: 60, topic: null, audience: { kind: "channels" as const, channels: [obras.id], slugs: ["obras"] } };
      const send = await notifications.createWithJobs(input, { now: Date.now(), jobSize: 1000, payloadFor: ({ id, tag }) => payloadFor(input, tag, String(id)) });
      const all = await openStream(url + STREAM);
      const ofObras = await openStream(`${url + STREAM}?channel=obras`);
      const ofEventos = await openStream(`${url + STREAM}?channel=eventos`);
      await notifications.setNotice(send.id, "hidden", Date.now());
      tick();
      const withdrawn = `event: notice-withdrawn\ndata: {"id":"${send.id}"}\n\n`;
      await Promise.all([all.waitFor(withdrawn), ofObras.waitFor(withdrawn)]);
      // Later polls do not say it again; the other channel's stream never hears of it.
      tick();
      tick();
      await notifications.setNotice(send.id, "public", Date.now());
      const later = await storeSend(database, "Depois");
      tick();
      await all.waitFor(`id: ${later.id}\n`);
      expect(all.text.split(withdrawn)).toHaveLength(2);
      expect(ofEventos.text).not.toContain("notice-withdrawn");
      for (const s of [all, ofObras, ofEventos]) s.close();
    });
  });

  describe(`the notice stream's connection caps on ${dialect}`, () => {
    let server: OperatorServer;
    afterEach(async () => {
      await server.close();
    });

    it("refuses a stream past the per-address cap with 429 too_many_streams, and takes one again once another closes", async () => {
      server = await startOperatorServer({ dialect, env: { SINO_STREAMS_MAX_PER_ADDRESS: "2", SINO_STREAMS_MAX: "50" } });
      const a = await openStream(server.url + STREAM);
      const b = await openStream(server.url + STREAM);
      const refused = await fetch(server.url + STREAM);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual(limitErrorOf("too_many_streams", undefined, "streams", 2));
      a.close();
      // The slot comes back when the server sees the client go.
      let again: Response;
      do again = await fetch(server.url + STREAM);
      while (again.status === 429 && (await again.body?.cancel(), true));
      expect(again.status).toBe(200);
      await again.body?.cancel();
      b.close();
    });

    it("refuses a stream past the total cap with 503 streams_unavailable", async () => {
      server = await startOperatorServer({ dialect, env: { SINO_STREAMS_MAX_PER_ADDRESS: "10", SINO_STREAMS_MAX: "3" } });
      const open = await Promise.all([1, 2, 3].map(() => openStream(server.url + STREAM)));
      const refused = await fetch(server.url + STREAM);
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual(errorOf("streams_unavailable"));
      for (const s of open) s.close();
    });
  });
}
