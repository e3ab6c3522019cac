import { createECDH } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { subscriberSecretsFor } from "../../test/support/fake-push/keys.js";
import { useFakePushService } from "../../test/support/fake-push/shared-fake-push-service.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { importVapidKeys } from "../push/vapid-key-import.js";
import { createPushTransport, type PushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { createRepositories, type Repositories } from "../store/repositories.js";
import { createDeliveryEngine, type DeliveryEngine } from "./engine.js";

const fake = useFakePushService();

/** A pair another sender made (`web-push generate-vapid-keys --json`), as the operator would paste it. */
function anotherSendersJson(): string {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const d = ecdh.getPrivateKey();
  return JSON.stringify({ publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: Buffer.concat([Buffer.alloc(32 - d.length), d]).toString("base64url") });
}

for (const dialect of DIALECTS) {
  describe(`per-site VAPID keys on ${dialect}`, () => {
    const defaultKeys = generateVapidKeys();
    let database: TestDatabase;
    let repositories: Repositories;
    let transport: PushTransport;
    let engine: DeliveryEngine;

    beforeEach(async () => {
      fake().reset();
      database = await createTestDatabase(dialect);
      repositories = createRepositories(database);
      transport = createPushTransport({
        policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
        ca: loadTestTls().ca,
        requestTimeoutMs: 10_000,
      });
      engine = createDeliveryEngine({
        repositories,
        transport,
        vapid: createVapidSigner({ keys: defaultKeys, subject: "mailto:ops@sino.example.com" }),
        options: { lanes: 2, batchSize: 4, jobSize: 5, pollMs: 20, encryptionThreads: 0 },
      });
      engine.start();
    });
    afterEach(async () => {
      await engine.stop({ graceful: true });
      await transport.close();
      await database.cleanup();
    });

    /**
     * Nine subscriptions at the fake, each bound there to the key it was made with (the fake
     * answers 403 to a JWT signed by any other key): p0–p2 on Sino's default key, p3–p5 on site A
     * with a generated key, p6–p8 on site B with an imported key (as the import writes them).
     */
    async function seed(prefix: string) {
      const ids = await seedSubscriptions(database, fake(), 9, prefix);
      const rows = await database.db.selectFrom("subscriptions").select("id").orderBy("id").execute();
      const a = await repositories.sites.create(`https://a-${prefix}.exemplo.com.br`, Date.now());
      const b = await repositories.sites.create(`https://b-${prefix}.exemplo.com.br`, Date.now());
      if (a === "origin_taken" || b === "origin_taken") throw new Error("unexpected");
      const generated = generateVapidKeys();
      const imported = importVapidKeys(anotherSendersJson());
      const onA = await repositories.siteKeys.setSiteKey(a.id, { kind: "pair", keys: generated, source: "generated" }, Date.now());
      const onB = await repositories.siteKeys.setSiteKey(b.id, { kind: "pair", keys: imported, source: "imported" }, Date.now());
      const keyA = onA!.current!.id;
      const keyB = onB!.current!.id;
      const dbIds = rows.map((r) => Number(r.id));
      await database.db.updateTable("subscriptions").set({ site_id: a.id, vapid_key_id: keyA }).where("id", "in", dbIds.slice(3, 6)).execute();
      await database.db.updateTable("subscriptions").set({ site_id: b.id, vapid_key_id: keyB }).where("id", "in", dbIds.slice(6, 9)).execute();
      const publicKeys = [defaultKeys.publicKey, generated.publicKey, imported.publicKey];
      ids.forEach((id, i) => fake().registerKeys(id, { ...subscriberSecretsFor(fake().keySeed, id), vapidKey: publicKeys[Math.floor(i / 3)]! }));
      return { ids, dbIds, a: a.id, b: b.id, keyA, keyB, generated, imported };
    }

    it("signs each push with the key its subscription was made with, and the push service verifies each", async () => {
      const { ids } = await seed("p");
      const created = await engine.createNotification({ title: "Três chaves" });
      const done = await waitForNotification(() => engine.getNotification(created.id));
      expect(done.counts).toMatchObject({ queued: 9, accepted: 9, failed: 0 });
      expect([...fake().stats().acceptedById.keys()].sort()).toEqual([...ids].sort());
      expect(fake().stats().vapidFailures).toEqual({});
    });

    it("fails the pushes whose subscription was recorded with the wrong key (the fake checks the signature's key)", async () => {
      const { dbIds, keyB } = await seed("w");
      // p0 was made with the default key at the push service, but the row now says site B's key.
      await database.db.updateTable("subscriptions").set({ vapid_key_id: keyB }).where("id", "=", dbIds[0]!).execute();
      const created = await engine.createNotification({ title: "Uma chave errada" });
      const done = await waitForNotification(() => engine.getNotification(created.id));
      expect(done.counts).toMatchObject({ queued: 9, accepted: 8, failed: 1 });
      expect(fake().stats().statuses["403"]).toBe(1);
    });

    it("keeps the old key while subscriptions use it after a rotation, and prunes it once none do", async () => {
      const { a, keyA, dbIds, generated } = await seed("r");
      const rotated = await repositories.siteKeys.setSiteKey(a, { kind: "pair", keys: generateVapidKeys(), source: "generated" }, Date.now());
      expect(rotated).toMatchObject({ previousKeyId: keyA, onPreviousKey: 3, pruned: 0 });
      expect(rotated!.current!.id).not.toBe(keyA);
      const summary = await repositories.siteKeys.summary(a);
      expect(summary!.previous.map((k) => k.publicKey)).toEqual([generated.publicKey]);
      expect(summary!.usage).toEqual([{ keyId: keyA, subscriptions: 3 }]);
      expect(JSON.stringify(summary)).not.toContain(generated.privateKey);

      // The old subscriptions still receive, signed with the old key.
      const created = await engine.createNotification({ title: "Depois da troca", audience: { kind: "everyone", sites: [a] } });
      expect((await waitForNotification(() => engine.getNotification(created.id))).counts).toMatchObject({ queued: 3, accepted: 3 });

      // Once they are gone (moved to the new key, or unsubscribed), the old pair is deleted.
      await database.db.deleteFrom("subscriptions").where("id", "in", dbIds.slice(3, 6)).execute();
      expect(await repositories.siteKeys.pruneUnused()).toBe(1);
      expect(await repositories.siteKeys.pairsByIds([keyA])).toEqual(new Map());
    });

    it("shares one row when two sites import the same pair, and back to the default keeps the pair for its subscriptions", async () => {
      const { a, b, imported, keyB } = await seed("s");
      const again = await repositories.siteKeys.setSiteKey(a, { kind: "pair", keys: { publicKey: imported.publicKey, privateKey: imported.privateKey }, source: "imported" }, Date.now());
      expect(again!.current!.id).toBe(keyB);
      const back = await repositories.siteKeys.setSiteKey(b, { kind: "default" }, Date.now());
      expect(back).toMatchObject({ previousKeyId: keyB, current: null, onPreviousKey: 3 });
      expect((await repositories.siteKeys.pairsByIds([keyB])).get(keyB)).toEqual({ publicKey: imported.publicKey, privateKey: imported.privateKey });
      expect(await repositories.siteKeys.setSiteKey(99_999, { kind: "default" }, Date.now())).toBeUndefined();
    });
  });
}
