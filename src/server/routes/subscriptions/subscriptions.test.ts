import { createECDH, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PUSH_HOSTS, MAX_ENDPOINT_LENGTH } from "../../../push/endpoint-policy.js";
import type { ErrorCode } from "../../../shared/errors.js";
import { ptBR } from "../../../shared/i18n/catalog.js";
import { DIALECTS } from "../../../../test/support/db.js";
import { limitErrorOf } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";
import { aBrowserSubscription } from "../../../../test/support/subscriptions.js";

const PATH = "/api/v1/subscriptions";

/** The production endpoint policy: no loopback push services, default hosts only. */
const PRODUCTION_POLICY = { SINO_PUSH_ALLOWED_HOSTS: DEFAULT_PUSH_HOSTS.join(","), SINO_PUSH_ALLOW_PRIVATE: "false" };

async function send(server: TestServer, method: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + PATH, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

function errorOf(code: ErrorCode, field?: string) {
  return { error: { code, message: ptBR.errors[code], ...(field === undefined ? {} : { field }) } };
}

async function countRows(server: TestServer): Promise<number> {
  const row = await server.database.db
    .selectFrom("subscriptions")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function withKeys(keys: { p256dh?: string; auth?: string }) {
  const sub = aBrowserSubscription();
  return { ...sub, keys: { ...sub.keys, ...keys } };
}

function offCurvePoint(): string {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const point = ecdh.getPublicKey();
  point[64] = point[64]! ^ 0x01;
  return point.toString("base64url");
}

const REJECTED: Array<[name: string, code: ErrorCode, field: string | undefined, body: () => unknown]> = [
  ["an endpoint that is not a URL", "endpoint_invalid", "endpoint", () => aBrowserSubscription({ endpoint: "not a url" })],
  ["a plain http endpoint", "endpoint_not_https", "endpoint", () => aBrowserSubscription({ endpoint: "http://fcm.googleapis.com/fcm/send/x" })],
  ["an endpoint with credentials", "endpoint_has_credentials", "endpoint", () => aBrowserSubscription({ endpoint: "https://u:p@fcm.googleapis.com/fcm/send/x" })],
  ["an IP-literal endpoint", "endpoint_ip_literal", "endpoint", () => aBrowserSubscription({ endpoint: "https://8.8.8.8/push/x" })],
  ["a loopback endpoint", "endpoint_private_address", "endpoint", () => aBrowserSubscription({ endpoint: "https://127.0.0.1:8443/push/x" })],
  ["a private-network endpoint", "endpoint_private_address", "endpoint", () => aBrowserSubscription({ endpoint: "https://192.168.1.10/push/x" })],
  ["a host not on the allow-list", "endpoint_host_not_allowed", "endpoint", () => aBrowserSubscription({ endpoint: "https://push.example.net/x" })],
  ["a lookalike host", "endpoint_host_not_allowed", "endpoint", () => aBrowserSubscription({ endpoint: "https://fcm.googleapis.com.evil.example/x" })],
  ["a too long endpoint", "endpoint_too_long", "endpoint", () => aBrowserSubscription({ endpoint: `https://fcm.googleapis.com/fcm/send/${"a".repeat(1100)}` })],
  ["a p256dh of 64 bytes", "p256dh_invalid", "keys.p256dh", () => withKeys({ p256dh: randomBytes(64).toString("base64url") })],
  ["a compressed p256dh", "p256dh_invalid", "keys.p256dh", () => withKeys({ p256dh: Buffer.concat([Buffer.from([2]), randomBytes(32)]).toString("base64url") })],
  ["a p256dh in the standard base64 alphabet", "p256dh_invalid", "keys.p256dh", () => withKeys({ p256dh: `+/${aBrowserSubscription().keys.p256dh.slice(2)}` })],
  ["a p256dh that is not on the P-256 curve", "p256dh_off_curve", "keys.p256dh", () => withKeys({ p256dh: offCurvePoint() })],
  ["an auth of 15 bytes", "auth_invalid", "keys.auth", () => withKeys({ auth: randomBytes(15).toString("base64url") })],
  ["an auth of 17 bytes", "auth_invalid", "keys.auth", () => withKeys({ auth: randomBytes(17).toString("base64url") })],
  ["a body without keys", "validation_failed", "keys", () => ({ endpoint: aBrowserSubscription().endpoint })],
  ["a body where the endpoint is a number", "validation_failed", "endpoint", () => ({ ...aBrowserSubscription(), endpoint: 42 })],
  ["a JSON array", "validation_failed", undefined, () => []],
  ["malformed JSON", "invalid_json", undefined, () => '{"endpoint": '],
  ["an empty JSON body", "invalid_json", undefined, () => ""],
];

for (const dialect of DIALECTS) {
  describe(`subscription API on ${dialect}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ dialect, env: PRODUCTION_POLICY });
    });
    afterAll(async () => {
      await server.close();
    });

    describe("registering", () => {
      it("stores a new subscription and answers 201 with its presentation", async () => {
        const sub = aBrowserSubscription();
        const before = await countRows(server);
        const res = await send(server, "POST", sub, { "user-agent": "Mozilla/5.0 Teste" });
        expect(res.status).toBe(201);
        const presented = (res.body as { subscription: Record<string, unknown> }).subscription;
        expect(Object.keys(presented).sort()).toEqual(["channels", "createdAt", "id", "updatedAt", "userId"]);
        expect(presented.id).toMatch(/^\d+$/);
        expect(new Date(presented.createdAt as string).toISOString()).toBe(presented.createdAt);

        const row = await server.database.db
          .selectFrom("subscriptions")
          .selectAll()
          .where("endpoint", "=", sub.endpoint)
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({ p256dh: sub.keys.p256dh, auth: sub.keys.auth, user_agent: "Mozilla/5.0 Teste" });
        expect(String(row.id)).toBe(presented.id);
        expect(await countRows(server)).toBe(before + 1);
      });

      it("is idempotent: registering the same subscription again answers 200 and keeps one row", async () => {
        const sub = aBrowserSubscription();
        const first = await send(server, "POST", sub);
        const before = await countRows(server);
        const second = await send(server, "POST", sub);
        expect(first.status).toBe(201);
        expect(second.status).toBe(200);
        expect(second.body).toEqual({ subscription: expect.objectContaining({ id: (first.body as { subscription: { id: string } }).subscription.id }) });
        expect(await countRows(server)).toBe(before);
      });

      it("clears a VAPID-mismatch flag (a 403 from its push service) when the browser registers again", async () => {
        const sub = aBrowserSubscription();
        expect((await send(server, "POST", sub)).status).toBe(201);
        const flagged = () => server.database.db.selectFrom("subscriptions").select("vapid_mismatch_at").where("endpoint", "=", sub.endpoint).executeTakeFirstOrThrow();
        await server.database.db.updateTable("subscriptions").set({ vapid_mismatch_at: Date.now() }).where("endpoint", "=", sub.endpoint).execute();
        expect((await flagged()).vapid_mismatch_at).not.toBeNull();
        // A stranger knowing the endpoint cannot clear it (nor change anything).
        expect((await send(server, "POST", { ...sub, keys: { ...sub.keys, auth: aBrowserSubscription().keys.auth } })).status).toBe(403);
        expect((await flagged()).vapid_mismatch_at).not.toBeNull();
        expect((await send(server, "POST", sub)).status).toBe(200);
        expect((await flagged()).vapid_mismatch_at).toBeNull();
      });

      it("refuses to replace the keys of a known endpoint without its auth secret", async () => {
        const sub = aBrowserSubscription();
        await send(server, "POST", sub);
        const attacker = { ...aBrowserSubscription(), endpoint: sub.endpoint };
        const res = await send(server, "POST", attacker);
        expect(res).toEqual({ status: 403, body: errorOf("subscription_auth_mismatch", "keys.auth") });
        const row = await server.database.db.selectFrom("subscriptions").selectAll().where("endpoint", "=", sub.endpoint).executeTakeFirstOrThrow();
        expect(row.auth).toBe(sub.keys.auth);
        expect(row.p256dh).toBe(sub.keys.p256dh);
      });

      it("knows a registered endpoint in any spelling of its URL: no second row, and another auth secret is still refused", async () => {
        const sub = aBrowserSubscription();
        const first = await send(server, "POST", sub);
        const id = (first.body as { subscription: { id: string } }).subscription.id;
        const before = await countRows(server);
        const path = sub.endpoint.slice("https://fcm.googleapis.com".length);
        for (const spelling of [`https://FCM.googleapis.com${path}`, `https://fcm.googleapis.com:443${path}`, `https://Fcm.GoogleApis.com:443${path}`]) {
          const again = await send(server, "POST", { ...sub, endpoint: spelling });
          expect({ spelling, status: again.status, id: (again.body as { subscription: { id: string } }).subscription.id }).toEqual({ spelling, status: 200, id });
          const attacker = await send(server, "POST", { ...aBrowserSubscription(), endpoint: spelling });
          expect(attacker).toEqual({ status: 403, body: errorOf("subscription_auth_mismatch", "keys.auth") });
        }
        expect(await countRows(server)).toBe(before);

        // A new subscription written unusually is stored as the browser's usual spelling.
        const unusual = aBrowserSubscription();
        const unusualPath = unusual.endpoint.slice("https://fcm.googleapis.com".length);
        expect((await send(server, "POST", { ...unusual, endpoint: `https://FCM.GOOGLEAPIS.COM:443${unusualPath}` })).status).toBe(201);
        const stored = await server.database.db.selectFrom("subscriptions").select("endpoint").where("auth", "=", unusual.keys.auth).executeTakeFirstOrThrow();
        expect(stored.endpoint).toBe(unusual.endpoint);
        // Removing it by another spelling finds it too.
        expect((await send(server, "DELETE", { endpoint: `https://fcm.googleapis.com:443${unusualPath}`, auth: unusual.keys.auth })).status).toBe(204);
      });

      it("refuses a non-default port on an allowed push host unless the allow-list names that port", async () => {
        const endpoint = `https://fcm.googleapis.com:8443/fcm/send/${dialect}-porta`;
        const before = await countRows(server);
        expect((await send(server, "POST", aBrowserSubscription({ endpoint }))).body).toEqual(errorOf("endpoint_host_not_allowed", "endpoint"));
        expect((await send(server, "POST", aBrowserSubscription({ endpoint: `https://updates.push.services.mozilla.com:444/wpush/v2/${dialect}` }))).body).toEqual(
          errorOf("endpoint_host_not_allowed", "endpoint"),
        );
        expect(await countRows(server)).toBe(before);
        const withPort = await startTestServer({
          dialect,
          env: { SINO_PUSH_ALLOWED_HOSTS: `${DEFAULT_PUSH_HOSTS.join(",")},fcm.googleapis.com:8443`, SINO_PUSH_ALLOW_PRIVATE: "false" },
        });
        try {
          expect((await send(withPort, "POST", aBrowserSubscription({ endpoint }))).status).toBe(201);
          // Naming one port opens only that one.
          expect((await send(withPort, "POST", aBrowserSubscription({ endpoint: endpoint.replace(":8443", ":8444") }))).body).toEqual(
            errorOf("endpoint_host_not_allowed", "endpoint"),
          );
        } finally {
          await withPort.close();
        }
      });

      it("accepts padded base64url keys and stores them unpadded", async () => {
        const sub = aBrowserSubscription();
        const padded = {
          ...sub,
          keys: { p256dh: `${sub.keys.p256dh}=`, auth: `${sub.keys.auth}==` },
        };
        expect((await send(server, "POST", padded)).status).toBe(201);
        const row = await server.database.db.selectFrom("subscriptions").selectAll().where("endpoint", "=", sub.endpoint).executeTakeFirstOrThrow();
        expect(row.p256dh).toBe(sub.keys.p256dh);
        expect(row.auth).toBe(sub.keys.auth);
      });

      it("cuts a very long user agent instead of refusing the subscription", async () => {
        const sub = aBrowserSubscription();
        expect((await send(server, "POST", sub, { "user-agent": "x".repeat(2000) })).status).toBe(201);
        const row = await server.database.db.selectFrom("subscriptions").selectAll().where("endpoint", "=", sub.endpoint).executeTakeFirstOrThrow();
        expect(row.user_agent).toHaveLength(512);
      });

      it.each(REJECTED)("refuses %s with %s and stores nothing", async (_name, code, field, body) => {
        const before = await countRows(server);
        const res = await send(server, "POST", body());
        // The length bound is named in the message (issue 23): 1,024 characters.
        expect(res).toEqual({ status: 400, body: code === "endpoint_too_long" ? limitErrorOf(code, field, "endpointChars", MAX_ENDPOINT_LENGTH) : errorOf(code, field) });
        expect(await countRows(server)).toBe(before);
      });

      it("refuses a body over 160 KiB (room for 100 signed tags) with 413 and stores nothing", async () => {
        const before = await countRows(server);
        const sub = { ...aBrowserSubscription(), padding: "x".repeat(170_000) };
        const res = await send(server, "POST", sub);
        expect(res).toEqual({ status: 413, body: limitErrorOf("payload_too_large", undefined, "bodyBytes", 160 * 1024) });
        expect(await countRows(server)).toBe(before);
      });

      it.each([
        ["text/plain", { "content-type": "text/plain" }],
        ["form data", { "content-type": "application/x-www-form-urlencoded" }],
        ["XML", { "content-type": "application/xml" }],
      ])("refuses a %s body with 415 and stores nothing", async (_name, headers) => {
        const before = await countRows(server);
        const res = await send(server, "POST", aBrowserSubscription(), headers);
        expect(res).toEqual({ status: 415, body: errorOf("unsupported_media_type") });
        expect(await countRows(server)).toBe(before);
      });

      it("refuses a request without a content type with 415", async () => {
        const res = await fetch(server.url + PATH, { method: "POST", body: new Blob([JSON.stringify(aBrowserSubscription())]) });
        expect(res.status).toBe(415);
        expect(await res.json()).toEqual(errorOf("unsupported_media_type"));
      });

      it("accepts application/json with a charset parameter", async () => {
        const res = await send(server, "POST", aBrowserSubscription(), { "content-type": "application/json; charset=utf-8" });
        expect(res.status).toBe(201);
      });
    });

    describe("removing", () => {
      it("removes a subscription given its auth secret (204)", async () => {
        const sub = aBrowserSubscription();
        await send(server, "POST", sub);
        const before = await countRows(server);
        const res = await send(server, "DELETE", { endpoint: sub.endpoint, auth: sub.keys.auth });
        expect(res).toEqual({ status: 204, body: undefined });
        expect(await countRows(server)).toBe(before - 1);
        const gone = await server.database.db.selectFrom("subscriptions").select("id").where("endpoint", "=", sub.endpoint).executeTakeFirst();
        expect(gone).toBeUndefined();
      });

      it("refuses a wrong auth secret with 403 and keeps the row", async () => {
        const sub = aBrowserSubscription();
        await send(server, "POST", sub);
        const before = await countRows(server);
        const res = await send(server, "DELETE", { endpoint: sub.endpoint, auth: randomBytes(16).toString("base64url") });
        expect(res).toEqual({ status: 403, body: errorOf("subscription_auth_mismatch", "auth") });
        expect(await countRows(server)).toBe(before);
      });

      it("answers 404 for an unknown endpoint", async () => {
        const sub = aBrowserSubscription();
        const res = await send(server, "DELETE", { endpoint: sub.endpoint, auth: sub.keys.auth });
        expect(res).toEqual({ status: 404, body: errorOf("subscription_not_found", "endpoint") });
      });

      it("refuses a malformed auth secret, bad JSON and a non-JSON body, keeping the row", async () => {
        const sub = aBrowserSubscription();
        await send(server, "POST", sub);
        const before = await countRows(server);
        expect(await send(server, "DELETE", { endpoint: sub.endpoint, auth: "short" })).toEqual({
          status: 400,
          body: errorOf("auth_invalid", "auth"),
        });
        expect(await send(server, "DELETE", "{nope")).toEqual({ status: 400, body: errorOf("invalid_json") });
        expect(await send(server, "DELETE", { endpoint: sub.endpoint })).toEqual({ status: 400, body: errorOf("validation_failed", "auth") });
        expect((await send(server, "DELETE", { endpoint: sub.endpoint, auth: sub.keys.auth }, { "content-type": "text/plain" })).status).toBe(415);
        expect(await countRows(server)).toBe(before);
      });
    });

    it("answers a method the subscriptions path does not take with 405 and Allow", async () => {
      const res = await fetch(server.url + PATH, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST, DELETE");
      expect(await res.json()).toEqual(errorOf("method_not_allowed"));
    });

    it("answers unknown API routes with a not_found JSON error", async () => {
      for (const path of ["/api/v1/nothing-here", "/api/v2/subscriptions", "/api"]) {
        const res = await fetch(server.url + path);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual(errorOf("not_found"));
      }
    });
  });
}

describe("the endpoint allow-list comes from configuration", () => {
  it("accepts a push service host only once the configuration lists it", async () => {
    const endpoint = "https://push.example.net/channel/1";
    const strict = await startTestServer({ env: PRODUCTION_POLICY });
    const extended = await startTestServer({
      env: { SINO_PUSH_ALLOWED_HOSTS: `${DEFAULT_PUSH_HOSTS.join(",")},push.example.net`, SINO_PUSH_ALLOW_PRIVATE: "false" },
    });
    try {
      expect((await send(strict, "POST", aBrowserSubscription({ endpoint }))).body).toEqual(
        errorOf("endpoint_host_not_allowed", "endpoint"),
      );
      expect((await send(extended, "POST", aBrowserSubscription({ endpoint }))).status).toBe(201);
      // Extending the list adds to it: the defaults still work.
      expect((await send(extended, "POST", aBrowserSubscription())).status).toBe(201);
    } finally {
      await strict.close();
      await extended.close();
    }
  });

  it("lets the test server (and only a configured one) accept a push service on 127.0.0.1", async () => {
    const endpoint = "https://127.0.0.1:8443/push/abc";
    const testServer = await startTestServer();
    const strict = await startTestServer({ env: PRODUCTION_POLICY });
    try {
      expect((await send(testServer, "POST", aBrowserSubscription({ endpoint }))).status).toBe(201);
      expect((await send(strict, "POST", aBrowserSubscription({ endpoint }))).body).toEqual(
        errorOf("endpoint_private_address", "endpoint"),
      );
    } finally {
      await testServer.close();
      await strict.close();
    }
  });
});
