/**
 * A site's VAPID keys over HTTP, on SQLite and PostgreSQL: admin-only choice of the default, a
 * generated or an imported key (each format), clear refusals with nothing stored, `/config`
 * handing out the site's key, registrations recording the key they were made with and "migrada",
 * and rotation keeping the old key for the subscriptions made with it.
 */
import { createECDH, generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { addUser, errorOf, setUpAdmin, startOperatorServer, type ApiClient, type OperatorServer } from "../../../../test/support/operators.js";
import { aBrowserSubscription } from "../../../../test/support/subscriptions.js";

const ENV = { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com" };

function webPushPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const d = ecdh.getPrivateKey();
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: Buffer.concat([Buffer.alloc(32 - d.length), d]).toString("base64url") };
}

for (const dialect of DIALECTS) {
  describe(`site VAPID keys on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let defaultKey: string;

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: ENV });
      admin = await setUpAdmin(server);
      defaultKey = (await admin.get("/api/v1/config")).body.vapidPublicKey;
    });
    afterAll(async () => {
      await server.close();
    });

    async function newSite(origin: string): Promise<{ id: string; key: string }> {
      const res = await admin.post("/api/v1/sites", { origin });
      expect(res.status).toBe(201);
      return res.body.site;
    }
    const configKey = async (siteKey: string) => (await admin.get(`/api/v1/config?site=${siteKey}`)).body.vapidPublicKey as string;
    async function register(origin: string, siteKey: string, extra: Record<string, unknown> = {}) {
      const subscription = aBrowserSubscription();
      const res = await fetch(`${server.url}/api/v1/subscriptions`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ ...subscription, site: siteKey, ...extra }),
      });
      expect(res.status).toBe(201);
      const row = await server.database.db.selectFrom("subscriptions").select(["vapid_key_id", "migrated_at"]).where("endpoint", "=", subscription.endpoint).executeTakeFirstOrThrow();
      return { keyId: row.vapid_key_id === null ? null : Number(row.vapid_key_id), migrated: row.migrated_at !== null, subscription };
    }

    it("imports web-push JSON, a PEM and a base64url private key; /config hands out the site's key", async () => {
      const site = await newSite("https://importa.exemplo.com.br");
      expect((await admin.get(`/api/v1/sites/${site.id}/vapid-key`)).body.keys.current).toEqual({ publicKey: defaultKey, source: "default", createdAt: null, subscriptions: 0 });
      expect(await configKey(site.key)).toBe(defaultKey);

      const json = webPushPair();
      const res = await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "import", key: JSON.stringify(json) });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ format: "web-push-json", onPreviousKey: 0, keys: { current: { publicKey: json.publicKey, source: "imported" } } });
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(JSON.stringify(res.body)).not.toContain(json.privateKey);
      expect(await configKey(site.key)).toBe(json.publicKey);

      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
      const jwk = publicKey.export({ format: "jwk" });
      const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]).toString("base64url");
      const pem = await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "import", key: privateKey.export({ format: "pem", type: "sec1" }) });
      expect(pem.body).toMatchObject({ format: "pem", keys: { current: { publicKey: point } } });

      const raw = webPushPair();
      const b64 = await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "import", key: raw.privateKey });
      expect(b64.body).toMatchObject({ format: "base64url", keys: { current: { publicKey: raw.publicKey, source: "imported" } } });
      expect(await configKey(site.key)).toBe(raw.publicKey);

      const generated = await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "generate" });
      expect(generated.body.keys.current.source).toBe("generated");
      expect(await configKey(site.key)).toBe(generated.body.keys.current.publicKey);
    });

    it("refuses bad keys with their pt-BR errors and stores nothing; publishers may not touch keys", async () => {
      const site = await newSite("https://recusa.exemplo.com.br");
      const a = webPushPair();
      const b = webPushPair();
      const cases: [unknown, string][] = [
        [{ mode: "import", key: "isto não é uma chave" }, "vapid_key_unreadable"],
        [{ mode: "import", key: a.publicKey }, "vapid_key_public_only"],
        [{ mode: "import", key: JSON.stringify({ publicKey: b.publicKey, privateKey: a.privateKey }) }, "vapid_key_mismatch"],
        [{ mode: "import", key: Buffer.alloc(32).toString("base64url") }, "vapid_key_private_invalid"],
        [{ mode: "import", key: generateKeyPairSync("ec", { namedCurve: "secp384r1" }).privateKey.export({ format: "pem", type: "sec1" }) }, "vapid_key_not_p256"],
        [{ mode: "import" }, "vapid_key_missing"],
      ];
      for (const [body, code] of cases) {
        const res = await admin.put(`/api/v1/sites/${site.id}/vapid-key`, body);
        expect(res.status, code).toBe(400);
        expect(res.body).toEqual(errorOf(code, "key"));
      }
      const bent = Buffer.from(a.publicKey, "base64url");
      bent[64]! ^= 1;
      const offCurve = await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "import", key: JSON.stringify({ publicKey: bent.toString("base64url"), privateKey: a.privateKey }) });
      expect(offCurve.body).toEqual(errorOf("vapid_key_off_curve", "key"));
      expect((await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "other" })).status).toBe(400);
      expect((await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "generate", extra: 1 })).status).toBe(400);
      expect((await admin.put(`/api/v1/sites/999999/vapid-key`, { mode: "generate" })).body).toEqual(errorOf("site_not_found"));
      const stored = await server.database.db.selectFrom("sites").select("vapid_key_id").where("id", "=", Number(site.id)).executeTakeFirstOrThrow();
      expect(stored.vapid_key_id).toBeNull();

      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "generate" })).status).toBe(403);
      expect((await publisher.get(`/api/v1/sites/${site.id}/vapid-key`)).status).toBe(403);
    });

    it("records each subscription's key and 'migrada'; a rotation keeps the old key for the subscriptions made with it", async () => {
      const origin = "https://gira.exemplo.com.br";
      const site = await newSite(origin);
      const old = webPushPair();
      const imported = await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "import", key: JSON.stringify(old) });
      const oldId = Number((await server.database.db.selectFrom("sites").select("vapid_key_id").where("id", "=", Number(site.id)).executeTakeFirstOrThrow()).vapid_key_id);
      expect(imported.status).toBe(200);
      const first = await register(origin, site.key);
      const second = await register(origin, site.key, { applicationServerKey: old.publicKey });
      expect([first.keyId, second.keyId]).toEqual([oldId, oldId]);

      const rotated = await admin.put(`/api/v1/sites/${site.id}/vapid-key`, { mode: "generate" });
      expect(rotated.body.onPreviousKey).toBe(2);
      expect(rotated.body.keys.previous).toEqual([expect.objectContaining({ publicKey: old.publicKey, source: "imported", subscriptions: 2 })]);
      const newKey = rotated.body.keys.current.publicKey as string;

      // A browser that says it subscribed with the old key (registered late) is recorded with it;
      // one that moved silently is recorded with the new key and counted as migrada.
      const late = await register(origin, site.key, { applicationServerKey: old.publicKey });
      expect(late.keyId).toBe(oldId);
      const moved = await register(origin, site.key, { applicationServerKey: newKey, migrated: true, previous: { endpoint: first.subscription.endpoint, auth: first.subscription.keys.auth } });
      expect(moved.keyId).not.toBe(oldId);
      expect(moved.migrated).toBe(true);
      const defaultOne = await register(origin, site.key, { applicationServerKey: defaultKey });
      expect(defaultOne.keyId).toBeNull();

      const keys = (await admin.get(`/api/v1/sites/${site.id}/vapid-key`)).body.keys;
      expect(keys).toMatchObject({ migrated: 1, current: { publicKey: newKey, subscriptions: 1 } });
      // The moved subscription's proof removed the first one: 2 left on the old key, 1 on the default.
      expect(keys.previous).toEqual([
        expect.objectContaining({ source: "default", subscriptions: 1 }),
        expect.objectContaining({ publicKey: old.publicKey, subscriptions: 2 }),
      ]);
    });
  });
}
