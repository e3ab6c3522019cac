/** `sino status <id>` against a real server, with a worker holding marketing for the subscribers' local time. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usePublishingServer } from "../../test/support/publishing-server.js";
import { seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { createDeliveryEngine } from "../delivery/engine.js";
import { createLocalTimeGate } from "../delivery/gates/local-time-gate.js";
import { createPushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { createRepositories } from "../store/repositories.js";
import { runCli } from "./main.js";
import { captureIo, clearExitCodeAroundEachTest } from "../../test/support/cli.js";

/** 23:00 in São Paulo; 08:00 there is nine hours later. */
const SP_23H = Date.UTC(2026, 10, 27, 2, 0, 0);

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake.close();
});

describe("sino status", () => {
  const setup = usePublishingServer();
  clearExitCodeAroundEachTest();

  it("says how many wait for their local window and when the next go, and how many expired", async () => {
    const database = setup.server.database;
    const ids = await seedSubscriptions(database, fake, 5, "cli-fuso-");
    await database.db.updateTable("subscriptions").set({ time_zone: "Asia/Singapore" }).where("endpoint", "=", fake.endpointFor(ids[0]!)).execute();
    await database.db.updateTable("subscriptions").set({ quiet_hours: "20:00-12:00" }).where("endpoint", "=", fake.endpointFor(ids[1]!)).execute();
    const started = Date.now();
    const clock = () => SP_23H + (Date.now() - started);
    const repositories = createRepositories(database);
    const transport = createPushTransport({ policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 }, ca: loadTestTls().ca });
    const worker = createDeliveryEngine({
      repositories,
      transport,
      vapid: createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" }),
      clock,
      options: { pollMs: 20, encryptionThreads: 0, lanes: 1 },
      localTime: createLocalTimeGate({ defaultTimeZone: "America/Sao_Paulo", sites: () => repositories.sites.listPlain(), clock }),
    });
    // Made by the worker's engine, so that its TTL counts from 23h São Paulo too.
    const created = await worker.createNotification({ title: "Noite", ttlSeconds: 11 * 3600 });
    worker.start();
    try {
      // Singapore now; three at 08:00 in São Paulo; the one quiet until 12:00 there would outlive the 11 h TTL.
      await waitForNotification(() => worker.getNotification(created.id), (s) => s.counts.accepted === 1 && s.counts.waiting === 3 && s.counts.expired === 1);
    } finally {
      await worker.stop({ graceful: true });
      await transport.close();
    }
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["status", String(created.id), "--server", setup.server.url], io);
    expect(io.err).toEqual([]);
    expect(process.exitCode ?? 0).toBe(0);
    expect(io.out.join("")).toBe(
      `Envio ${created.id}: enviando. Na fila: 5; aceitas: 1; em nova tentativa: 0; falhas: 0; removidas: 0; aguardando o horário: 3; expiradas na espera: 1.\n` +
        "3 assinantes aguardam o horário de envio no fuso deles; os próximos saem em 27/11/2026, 08:00 (America/Sao_Paulo).\n" +
        "1 não recebeu: a validade terminaria antes do horário de envio dele.\n",
    );
  });

  it("refuses an id that is not a number", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["status", "abc", "--server", setup.server.url], io);
    expect(process.exitCode).toBe(2);
    expect(io.err.join("")).toBe('Número de envio inválido: "abc".\n');
  });
});
