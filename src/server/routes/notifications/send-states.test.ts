import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../../../test/support/fake-push/test-tls.js";
import { ApiClient, addUser, errorOf, setUpAdmin } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";

const NOTIFICATIONS = "/api/v1/notifications";
const ENGINE_ENV = {
  SINO_PUSH_CA_FILE: loadTestTls().caPath,
  SINO_WORKER_POLL_MS: "50",
  SINO_ENCRYPTION_THREADS: "1",
  SINO_PUSH_TIMEOUT_MS: "5000",
};

/** An open notices stream: the text read so far, and a way to wait for a fragment of it. */
async function openNoticeStream(url: string) {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/v1/notices/stream`, { signal: controller.signal });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const stream = {
    text: "",
    async waitFor(fragment: string) {
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

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService({ decryptSample: 1 });
});
afterAll(async () => {
  await fake.close();
});

for (const dialect of DIALECTS) {
  describe(`send states over the API on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    let publisher: ApiClient;
    let ids: string[];
    const client = () => ({ url: server.url, origin: server.url });
    const noticeTitles = async () => ((await new ApiClient(client()).get("/api/v1/notices")).body.notices as { title: string }[]).map((n) => n.title);

    beforeAll(async () => {
      server = await startTestServer({ dialect, env: ENGINE_ENV });
      admin = await setUpAdmin(client());
      publisher = (await addUser(admin, "publisher")).client;
      ids = await seedSubscriptions(server.database, fake, 3, `${dialect}-states-`);
    });
    afterAll(async () => {
      await server.close();
    });

    it("ends a send to nobody as no_recipients, never completed, in the answer, the history filter and the CSV", async () => {
      const { body: channel } = await admin.post("/api/v1/channels", { slug: `vazio-${dialect}`, name: "Canal vazio" });
      const res = await publisher.post(NOTIFICATIONS, { title: "Para um canal vazio", audience: { type: "channels", channels: [channel.channel.slug] } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ targeted: 0, notification: { status: "no_recipients", counts: { queued: 0 }, finishedAt: expect.any(String) } });
      const listed = await publisher.get(`${NOTIFICATIONS}?status=no_recipients`);
      expect(listed.body.notifications.map((n: { id: string }) => n.id)).toEqual([res.body.notification.id]);
      const csv = await fetch(`${server.url}${NOTIFICATIONS}/${res.body.notification.id}/results.csv`, { headers: { cookie: `${publisher.cookieName}=${publisher.session}` } });
      const [header, row] = (await csv.text()).replace(/^\uFEFF/, "").split("\r\n");
      expect(header!.split(",").slice(10)).toEqual(["Situação", "Em nova tentativa", "Próxima tentativa", "Motivos das novas tentativas", "Em Avisos", "cliques_abrir", "cliques_acao_1", "cliques_acao_2"]);
      expect(row!.split(",").slice(10)).toEqual(["Sem destinatários", "0", "", "", "Publicado em Avisos", "0", "0", "0"]);
    });

    it("shows why pushes are retried, by push service, and when the next attempt is (API and CSV)", async () => {
      fake.reset();
      // One push service host (the fake) answers 503 for one subscription with a Retry-After of
      // an hour: that push waits, and the send shows why.
      fake.setBehaviour({ id: ids[1]!, times: 1, action: { kind: "status", status: 503, retryAfter: 3600 } });
      const sentAt = Date.now();
      const res = await publisher.post(NOTIFICATIONS, { title: "Com nova tentativa" });
      const id = res.body.notification.id as string;
      await waitForNotification(() => server.delivery.getNotification(Number(id)), (s) => s.counts.retrying === 1 && s.counts.accepted === 2);
      const retries = await publisher.get(`${NOTIFICATIONS}/${id}/retries`);
      expect(retries.status).toBe(200);
      const host = new URL(fake.endpointFor(ids[1]!)).host;
      expect(retries.body).toEqual({
        waiting: 1,
        nextAttemptAt: expect.any(String),
        causes: [{ host, reason: "unavailable", status: 503, pushes: 1, firstAt: expect.any(String), lastAt: expect.any(String), nextAttemptAt: retries.body.nextAttemptAt, detail: expect.any(String) }],
      });
      // Retry-After: 3600 s from the answer.
      expect(Date.parse(retries.body.nextAttemptAt) - sentAt).toBeGreaterThanOrEqual(3_600_000);
      expect(JSON.stringify(retries.body)).not.toContain(fake.endpointFor(ids[1]!));

      const csv = await fetch(`${server.url}${NOTIFICATIONS}/${id}/results.csv`, { headers: { cookie: `${publisher.cookieName}=${publisher.session}` } });
      const row = (await csv.text()).replace(/^\uFEFF/, "").split("\r\n")[1]!;
      expect(row).toContain(`Enviando,1,${retries.body.nextAttemptAt},"${host}: Serviço temporariamente indisponível (HTTP 503), 1 nova tentativa"`);

      // A send with no retry has none to show.
      const quiet = await publisher.post(NOTIFICATIONS, { title: "Sem tropeço", audience: { type: "endpoint", endpoint: fake.endpointFor(ids[0]!) } });
      await waitForNotification(() => server.delivery.getNotification(Number(quiet.body.notification.id)));
      expect((await publisher.get(`${NOTIFICATIONS}/${quiet.body.notification.id}/retries`)).body).toEqual({ waiting: 0, nextAttemptAt: null, causes: [] });
      expect(await publisher.get(`${NOTIFICATIONS}/999999/retries`)).toMatchObject({ status: 404, body: errorOf("notification_not_found") });
      expect((await new ApiClient(client()).get(`${NOTIFICATIONS}/${id}/retries`)).status).toBe(401);
      // Cancelled: the waiting push is dropped, the cause stays on record.
      await publisher.post(`${NOTIFICATIONS}/${id}/cancel`);
      expect((await publisher.get(`${NOTIFICATIONS}/${id}/retries`)).body).toMatchObject({ waiting: 0, nextAttemptAt: null, causes: [{ host, status: 503 }] });
    });

    it("keeps a send off Avisos when asked, publishes it later, hides it and removes it for good", async () => {
      const hidden = await publisher.post(NOTIFICATIONS, { title: "Teste interno", notice: "hidden" });
      expect(hidden.body.notification.notice).toBe("hidden");
      const shown = await publisher.post(NOTIFICATIONS, { title: "Feira no sábado" });
      expect(shown.body.notification.notice).toBe("public");
      await waitForNotification(() => server.delivery.getNotification(Number(hidden.body.notification.id)));
      await waitForNotification(() => server.delivery.getNotification(Number(shown.body.notification.id)));
      expect(await noticeTitles()).toContain("Feira no sábado");
      expect(await noticeTitles()).not.toContain("Teste interno");

      const hiddenPath = `${NOTIFICATIONS}/${hidden.body.notification.id}/notice`;
      const published = await publisher.patch(hiddenPath, { notice: "public" });
      expect(published).toMatchObject({ status: 200, body: { notification: { id: hidden.body.notification.id, notice: "public" } } });
      expect(await noticeTitles()).toContain("Teste interno");

      expect((await publisher.patch(hiddenPath, { notice: "hidden" })).body.notification.notice).toBe("hidden");
      expect(await noticeTitles()).not.toContain("Teste interno");
      const removed = await publisher.delete(hiddenPath);
      expect(removed).toMatchObject({ status: 200, body: { notification: { notice: "removed" } } });
      expect(await publisher.patch(hiddenPath, { notice: "public" })).toMatchObject({ status: 409, body: errorOf("notice_removed", "notice") });
      expect((await publisher.get(`${NOTIFICATIONS}/${hidden.body.notification.id}`)).body.notification.notice).toBe("removed");
      expect(await noticeTitles()).not.toContain("Teste interno");
    });

    it("refuses a bad notice value, unknown fields, a test send and a missing send, changing nothing", async () => {
      const before = await publisher.post(NOTIFICATIONS, { title: "Intocado" });
      const path = `${NOTIFICATIONS}/${before.body.notification.id}/notice`;
      expect(await publisher.post(NOTIFICATIONS, { title: "x", notice: "talvez" })).toMatchObject({ status: 400, body: errorOf("notice_invalid", "notice") });
      expect(await publisher.patch(path, { notice: "removed" })).toMatchObject({ status: 400, body: errorOf("notice_invalid", "notice") });
      expect((await publisher.patch(path, { notice: "hidden", foo: 1 })).status).toBe(400);
      expect((await publisher.patch(path, {})).status).toBe(400);
      expect((await publisher.get(`${NOTIFICATIONS}/${before.body.notification.id}`)).body.notification.notice).toBe("public");
      // A test to one browser is never a notice: stored hidden, and cannot be published.
      const test = await publisher.post(NOTIFICATIONS, { title: "Só para mim", audience: { type: "endpoint", endpoint: fake.endpointFor(ids[2]!) } });
      expect(test.body.notification.notice).toBe("hidden");
      expect(await publisher.patch(`${NOTIFICATIONS}/${test.body.notification.id}/notice`, { notice: "public" })).toMatchObject({ status: 409, body: errorOf("notice_not_public") });
      expect(await publisher.patch(`${NOTIFICATIONS}/999999/notice`, { notice: "hidden" })).toMatchObject({ status: 404, body: errorOf("notification_not_found") });
      expect((await new ApiClient(client()).delete(path)).status).toBe(401);
    });

    it("documents the new routes and fields in the OpenAPI document", async () => {
      const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
      const notice = doc.paths["/api/v1/notifications/{id}/notice"];
      expect(notice.patch).toMatchObject({ operationId: "setNotificationNotice", security: [{ session: [] }, { bearer: [] }] });
      expect(notice.patch.requestBody.content["application/json"].schema.properties.notice.enum).toEqual(["public", "hidden"]);
      expect(notice.delete.operationId).toBe("removeNotificationNotice");
      const retries = doc.paths["/api/v1/notifications/{id}/retries"].get;
      expect(retries.operationId).toBe("getNotificationRetries");
      expect(retries.responses["200"].content["application/json"].schema.required).toEqual(["waiting", "nextAttemptAt", "causes"]);
      expect(doc.paths["/api/v1/notifications"].post.requestBody.content["application/json"].schema.properties.notice.enum).toEqual(["public", "hidden"]);
    });

    it("tells open Avisos pages to drop a send taken off, on the live stream", async () => {
      const send = await publisher.post(NOTIFICATIONS, { title: "Enviado por engano" });
      const id = send.body.notification.id as string;
      const stream = await openNoticeStream(server.url);
      try {
        await publisher.patch(`${NOTIFICATIONS}/${id}/notice`, { notice: "hidden" });
        await stream.waitFor(`event: notice-withdrawn\ndata: {"id":"${id}"}\n\n`);
      } finally {
        stream.close();
      }
    });
  });
}
