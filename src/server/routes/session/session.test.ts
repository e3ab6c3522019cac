import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import {
  ADMIN,
  ApiClient,
  addUser,
  errorOf,
  setUpAdmin,
  startOperatorServer,
  type OperatorServer,
} from "../../../../test/support/operators.js";
import { sha256Hex } from "../../auth/secrets.js";
import { DEFAULT_THROTTLE_POLICY } from "../../auth/login-throttle.js";
import { createPasswordHasher, type PasswordHasher } from "../../auth/password.js";
import { SESSION_TTL_MS } from "../../auth/session-cookie.js";

const SESSION = "/api/v1/session";

function cookieAttributes(setCookie: string): Map<string, string> {
  const parts = setCookie.split(";").map((p) => p.trim());
  return new Map(parts.slice(1).map((p) => {
    const [k, v] = p.split("=");
    return [k!.toLowerCase(), v ?? ""];
  }));
}

for (const dialect of DIALECTS) {
  describe(`sessions on ${dialect}`, () => {
    let server: OperatorServer;
    let clock: number;
    let sleeps: number[];

    beforeEach(async () => {
      clock = Date.UTC(2026, 0, 10, 12);
      sleeps = [];
      server = await startOperatorServer({
        dialect,
        now: () => clock,
        auth: { sleep: async (ms) => void sleeps.push(ms) },
      });
      await setUpAdmin(server);
    });
    afterEach(async () => {
      await server.close();
    });

    it("signs in with the right password, setting a hardened session cookie, and says who is signed in", async () => {
      const client = new ApiClient(server);
      const res = await client.post(SESSION, { email: "  ANA@exemplo.com.br ", password: ADMIN.password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: { id: expect.any(String), name: ADMIN.name, email: ADMIN.email, role: "admin", createdAt: expect.any(String), mustChangePassword: false } });
      const [setCookie] = res.headers.getSetCookie();
      // https public URL: the __Host- prefix, which browsers hold to Secure, Path=/ and no Domain.
      const value = /^__Host-sino_session=([^;]+)/.exec(setCookie!)![1]!;
      // 32 random bytes, base64url: 43 characters, 256 bits.
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const attrs = cookieAttributes(setCookie!);
      expect(attrs.has("httponly")).toBe(true);
      expect(attrs.get("samesite")).toBe("Lax");
      expect(attrs.get("path")).toBe("/");
      expect(attrs.has("secure")).toBe(true);
      expect(attrs.has("domain")).toBe(false);
      expect(Number(attrs.get("max-age"))).toBe(SESSION_TTL_MS / 1000);
      expect((await client.get(SESSION)).body.user.email).toBe(ADMIN.email);
    });

    it("stores only a hash of the session id", async () => {
      const client = new ApiClient(server);
      await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      const rows = await server.database.db.selectFrom("sessions").select("id_hash").execute();
      expect(rows.map((r) => r.id_hash)).toContain(sha256Hex(client.session!));
      expect(rows.map((r) => r.id_hash)).not.toContain(client.session);
    });

    it("gives the same 401 for an unknown email and a wrong password", async () => {
      const client = new ApiClient(server);
      const unknown = await client.post(SESSION, { email: "ninguem@exemplo.com.br", password: ADMIN.password });
      const wrong = await client.post(SESSION, { email: ADMIN.email, password: "senha-errada-123" });
      expect(unknown).toMatchObject({ status: 401, body: errorOf("invalid_credentials") });
      expect(wrong).toMatchObject({ status: 401, body: errorOf("invalid_credentials") });
      expect(unknown.headers.getSetCookie()).toEqual([]);
      expect(client.session).toBeUndefined();
    });

    it("answers 401 unauthenticated without a session, and with a made-up one", async () => {
      expect(await new ApiClient(server).get(SESSION)).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
      const forged = new ApiClient(server);
      forged.session = "A".repeat(43);
      expect(await forged.get(SESSION)).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
    });

    it("issues a new session id at every sign-in and drops the one the browser brought (no fixation)", async () => {
      const client = new ApiClient(server);
      await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      const first = client.session!;
      await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      const second = client.session!;
      expect(second).not.toBe(first);
      const old = new ApiClient(server);
      old.session = first;
      expect((await old.get(SESSION)).status).toBe(401);
      expect((await client.get(SESSION)).status).toBe(200);
    });

    it("signs out: the session row is deleted, the cookie cleared, and the old cookie no longer works", async () => {
      const client = new ApiClient(server);
      await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      const cookie = client.session!;
      const res = await client.delete(SESSION);
      expect(res.status).toBe(204);
      expect(res.headers.getSetCookie()[0]).toMatch(/^__Host-sino_session=;.*Max-Age=0.*Secure/);
      const row = await server.database.db.selectFrom("sessions").select("id_hash").where("id_hash", "=", sha256Hex(cookie)).executeTakeFirst();
      expect(row).toBeUndefined();
      const replay = new ApiClient(server);
      replay.session = cookie;
      expect(await replay.get(SESSION)).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
    });

    it("expires a session after 14 idle days, and slides the expiry forward when it is used", async () => {
      const client = new ApiClient(server);
      await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      clock += SESSION_TTL_MS - 60_000;
      const used = await client.get(SESSION);
      expect(used.status).toBe(200);
      // Refreshed: the cookie is sent again with a full lifetime.
      expect(used.headers.getSetCookie()[0]).toMatch(/Max-Age=1209600/);
      clock += SESSION_TTL_MS - 60_000;
      expect((await client.get(SESSION)).status).toBe(200);
      clock += SESSION_TTL_MS + 1;
      expect((await client.get(SESSION)).status).toBe(401);
    });

    it("slows each attempt after a few failures, then refuses with 429 and Retry-After, per account", async () => {
      const client = new ApiClient(server);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await client.post(SESSION, { email: ADMIN.email, password: `errada-${i}-xx` })).status);
      expect(statuses).toEqual(Array(10).fill(401));
      // No wait for the first three attempts, then a doubling delay, capped.
      expect(sleeps).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000]);
      const locked = await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      expect(locked).toMatchObject({ status: 429, body: errorOf("too_many_attempts") });
      expect(Number(locked.headers.get("retry-after"))).toBe(15 * 60);
      clock += 10 * 60_000;
      const later = await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      expect(later.status).toBe(429);
      expect(Number(later.headers.get("retry-after"))).toBe(5 * 60);
      // Once the lock has run out, the right password works and clears the account's count.
      clock += 5 * 60_000 + 1000;
      expect((await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);
      const attempts = await server.database.db.selectFrom("login_attempts").select("key").execute();
      expect(attempts.map((a) => a.key)).not.toContain(`account:${ADMIN.email}`);
    });

    it("resets the account's count on success, so an operator's typo does not pile up", async () => {
      const client = new ApiClient(server);
      for (let i = 0; i < 3; i++) await client.post(SESSION, { email: ADMIN.email, password: "quase-certa-1" });
      expect((await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);
      sleeps.length = 0;
      await client.post(SESSION, { email: ADMIN.email, password: "quase-certa-1" });
      expect(sleeps).toEqual([]);
    });

    it("refuses a client address that guesses across many accounts", async () => {
      const client = new ApiClient(server);
      for (let i = 0; i < 50; i++) {
        const res = await client.post(SESSION, { email: `alvo${i}@exemplo.com.br`, password: "chute-qualquer" });
        expect(res.status).toBe(401);
      }
      // The address is locked now, even for an account with no failures and the right password.
      const res = await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      expect(res).toMatchObject({ status: 429, body: errorOf("too_many_attempts") });
    });

    it("counts failures in the database, shared by every process", async () => {
      const second = await startOperatorServer({ dialect, database: server.database, now: () => clock, auth: { sleep: async () => undefined } });
      try {
        for (let i = 0; i < 10; i++) {
          const target = i % 2 === 0 ? server : second;
          expect((await new ApiClient(target).post(SESSION, { email: ADMIN.email, password: "errada-errada" })).status).toBe(401);
        }
        expect((await new ApiClient(second).post(SESSION, { email: ADMIN.email, password: ADMIN.password })).status).toBe(429);
        expect((await new ApiClient(server).post(SESSION, { email: ADMIN.email, password: ADMIN.password })).status).toBe(429);
      } finally {
        await second.close();
      }
    });

    it("verifies at most the lock limit of 30 concurrent wrong guesses, even split over two processes", async () => {
      let verified = 0;
      const real = createPasswordHasher();
      const counting: PasswordHasher = {
        hash: (password) => real.hash(password),
        verify: (hash, password) => ((verified += 1), real.verify(hash, password)),
        verifyNothing: (password) => ((verified += 1), real.verifyNothing(password)),
      };
      const auth = { sleep: async () => undefined, hasher: counting };
      const first = await startOperatorServer({ dialect, database: server.database, now: () => clock, auth });
      const second = await startOperatorServer({ dialect, database: server.database, now: () => clock, auth });
      try {
        const guesses = Array.from({ length: 30 }, (_, i) =>
          new ApiClient(i % 2 === 0 ? first : second).post(SESSION, { email: ADMIN.email, password: `chute-${i}-errado` }),
        );
        const statuses = (await Promise.all(guesses)).map((res) => res.status).sort();
        expect(verified).toBe(DEFAULT_THROTTLE_POLICY.account.lockAfter);
        expect(statuses).toEqual([...Array(10).fill(401), ...Array(20).fill(429)]);
        // And the right password is refused too while the account is locked.
        expect((await new ApiClient(first).post(SESSION, { email: ADMIN.email, password: ADMIN.password })).status).toBe(429);
        expect(verified).toBe(10);
      } finally {
        await first.close();
        await second.close();
      }
    });

    it("lets a publisher sign in too", async () => {
      const admin = new ApiClient(server);
      await admin.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      const { client, user } = await addUser(admin, "publisher");
      expect((await client.get(SESSION)).body.user).toEqual(user);
    });

    it("refuses a sign-in posted from a foreign page (login CSRF) but accepts one from a script without Origin", async () => {
      const foreign = new ApiClient(server, { origin: "https://evil.example" });
      expect(await foreign.post(SESSION, { email: ADMIN.email, password: ADMIN.password })).toMatchObject({ status: 403, body: errorOf("csrf_rejected") });
      const script = new ApiClient(server, { origin: null });
      expect((await script.post(SESSION, { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);
    });

    it("validates the sign-in body", async () => {
      const client = new ApiClient(server);
      expect(await client.post(SESSION, { email: ADMIN.email })).toMatchObject({ status: 400, body: errorOf("validation_failed", "password") });
      expect(await client.post(SESSION, "{oops")).toMatchObject({ status: 400, body: errorOf("invalid_json") });
      expect((await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password }, { "content-type": "text/plain" })).status).toBe(415);
    });
  });
}

describe("the session cookie over plain http", () => {
  it("is not marked Secure when SINO_PUBLIC_URL is http (local use)", async () => {
    const server = await startOperatorServer({ dialect: "sqlite", env: { SINO_PUBLIC_URL: "http://localhost:8080" } });
    try {
      const client = await setUpAdmin(server);
      const res = await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      const attrs = cookieAttributes(res.headers.getSetCookie()[0]!);
      expect(attrs.has("secure")).toBe(false);
      expect(attrs.has("httponly")).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe("the per-address throttle behind a reverse proxy", () => {
  const policy = {
    account: { slowAfter: 100, lockAfter: 100, lockMs: 60_000 },
    address: { slowAfter: 100, lockAfter: 3, lockMs: 60_000 },
    windowMs: 60_000,
    baseDelayMs: 0,
    maxDelayMs: 0,
  };

  async function lockOneAddressThenTryAnother(env: Record<string, string>): Promise<number> {
    const server = await startOperatorServer({ dialect: "sqlite", env, auth: { throttlePolicy: policy } });
    try {
      await setUpAdmin(server);
      const client = new ApiClient(server);
      for (let i = 0; i < 3; i++) {
        await client.post(SESSION, { email: `x${i}@exemplo.com.br`, password: "chute-chute" }, { "x-forwarded-for": "203.0.113.1" });
      }
      return (await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password }, { "x-forwarded-for": "203.0.113.2" })).status;
    } finally {
      await server.close();
    }
  }

  it("counts each client's forwarded address when the proxy is trusted (SINO_TRUST_PROXY)", async () => {
    expect(await lockOneAddressThenTryAnother({ SINO_TRUST_PROXY: "127.0.0.1" })).toBe(200);
  });

  it("ignores X-Forwarded-For from an untrusted peer, so a guesser cannot pick a new address per attempt", async () => {
    expect(await lockOneAddressThenTryAnother({})).toBe(429);
  });
});

for (const dialect of DIALECTS) {
  describe(`the session cookie over plain http on ${dialect}`, () => {
    let server: OperatorServer;
    beforeEach(async () => {
      server = await startOperatorServer({ dialect, env: { SINO_PUBLIC_URL: "http://localhost:8080" } });
      await setUpAdmin(server);
    });
    afterEach(async () => {
      await server.close();
    });

    it("has no __Host- prefix and no Secure flag (a browser would drop either over http), and still works", async () => {
      const client = new ApiClient(server);
      const res = await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
      const [setCookie] = res.headers.getSetCookie();
      expect(setCookie).toMatch(/^sino_session=[A-Za-z0-9_-]{43};/);
      expect(cookieAttributes(setCookie!).has("secure")).toBe(false);
      expect((await client.get(SESSION)).status).toBe(200);
    });
  });
}

describe("the __Host- session cookie is the only one accepted over https", () => {
  let server: OperatorServer;
  beforeEach(async () => {
    server = await startOperatorServer({ dialect: "sqlite" });
    await setUpAdmin(server);
  });
  afterEach(async () => {
    await server.close();
  });

  it("ignores a valid session id sent under the unprefixed name (a cookie a sibling host could plant)", async () => {
    const client = new ApiClient(server);
    await client.post(SESSION, { email: ADMIN.email, password: ADMIN.password });
    expect(client.cookieName).toBe("__Host-sino_session");
    const planted = await fetch(server.url + SESSION, { headers: { cookie: `sino_session=${client.session}` } });
    expect(planted.status).toBe(401);
    expect((await client.get(SESSION)).status).toBe(200);
  });
});
