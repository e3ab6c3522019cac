import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../test/support/db.js";
import { ADMIN, ApiClient, addToken, addUser, errorOf } from "../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../test/support/server.js";
import { AUDITED_ROUTES, AUDIT_ACTIONS } from "./audited-routes.js";
import { ptBR } from "../../shared/i18n/catalog.js";

const AUDIT = "/api/v1/audit";
const UA = "Mozilla/5.0 (X11; Linux x86_64) Teste/1.0";

interface Entry {
  id: string;
  at: string;
  actor: { kind: string; id: string | null; name: string | null };
  action: string;
  targetId: string | null;
  status: number;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

describe("the route → action table", () => {
  it("tells an exempt send (body exempt: true) from an ordinary one", () => {
    const send = AUDITED_ROUTES["POST /api/v1/notifications"]!.action as (body: unknown) => string;
    expect(send({ title: "Urgente", exempt: true })).toBe("notification.send_exempt");
    expect(send({ title: "Comum", exempt: false })).toBe("notification.send");
    expect(send({ title: "Comum" })).toBe("notification.send");
  });

  it("has a pt-BR label for every action it can record", () => {
    const labels = ptBR.audit.actions as Record<string, Record<string, string>>;
    for (const action of AUDIT_ACTIONS) {
      const [group, name] = action.split(".") as [string, string];
      expect(labels[group]?.[name], action).toEqual(expect.any(String));
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`audit log on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    const client = () => ({ url: server.url, origin: server.url });
    const entries = async (query = "") => {
      const res = await admin.get(`${AUDIT}${query}`);
      expect(res.status).toBe(200);
      return res.body as { entries: Entry[]; total: number; actions: string[] };
    };

    beforeAll(async () => {
      server = await startTestServer({ dialect, env: { SINO_WORKER_POLL_MS: "50" } });
      admin = new ApiClient(client());
      const res = await admin.post("/api/v1/setup", ADMIN, { "user-agent": UA });
      expect(res.status).toBe(201);
    });
    afterAll(async () => {
      await server.close();
    });

    it("records sign-ins, refused sign-ins, user and token changes, sends and cancels: who, what, from where, no secrets", async () => {
      const { entries: setup } = await entries();
      expect(setup).toEqual([
        {
          id: expect.any(String),
          at: expect.any(String),
          actor: { kind: "user", id: expect.any(String), name: ADMIN.name },
          action: "setup.first_admin",
          targetId: null,
          status: 201,
          ip: "127.0.0.1",
          userAgent: UA,
          requestId: expect.any(String),
        },
      ]);
      const adminId = setup[0]!.actor.id!;

      const stranger = new ApiClient(client());
      expect((await stranger.post("/api/v1/session", { email: ADMIN.email, password: "senha-errada-123" })).status).toBe(401);
      expect((await stranger.post("/api/v1/session", { email: "ninguem@exemplo.com.br", password: "senha-errada-123" })).status).toBe(401);
      expect((await stranger.post("/api/v1/session", { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);

      const { user, client: publisher } = await addUser(admin, "publisher", { name: "Paulo Publicador" });
      const token = await addToken(admin, "admin", "script de deploy");
      const scripted = new ApiClient(client(), { bearer: token.secret });
      const channel = await scripted.post("/api/v1/channels", { slug: `audit-${dialect}`, name: "Canal auditado" });
      expect(channel.status).toBe(201);

      const sent = await publisher.post("/api/v1/notifications", { title: "Para um canal vazio", audience: { type: "channels", channels: [`audit-${dialect}`] } });
      expect(sent.status).toBe(201);
      const scheduled = await publisher.post("/api/v1/notifications", { title: "Mais tarde", sendAt: new Date(Date.now() + 86_400_000).toISOString() });
      expect(scheduled.status).toBe(201);
      expect((await publisher.post(`/api/v1/notifications/${scheduled.body.notification.id}/cancel`)).status).toBe(200);
      expect((await admin.delete(`/api/v1/users/${user.id}`)).status).toBe(204);
      expect((await admin.delete(`/api/v1/tokens/${token.token.id}`)).status).toBe(204);
      // Signing out with a session its deleted user took along does nothing: not recorded.
      expect((await publisher.delete("/api/v1/session")).status).toBe(204);
      expect((await stranger.delete("/api/v1/session")).status).toBe(204);

      const { entries: log, total } = await entries();
      const summary = log.map((e) => [e.action, e.actor.kind, e.actor.name, e.targetId, e.status]).reverse();
      expect(summary).toEqual([
        ["setup.first_admin", "user", ADMIN.name, null, 201],
        ["session.sign_in_failed", "user", ADMIN.name, null, 401],
        ["session.sign_in_failed", "anonymous", "ninguem@exemplo.com.br", null, 401],
        ["session.sign_in", "user", ADMIN.name, null, 200],
        ["user.create", "user", ADMIN.name, user.id, 201],
        ["session.sign_in", "user", "Paulo Publicador", null, 200],
        ["token.create", "user", ADMIN.name, token.token.id, 201],
        ["channel.create", "token", "script de deploy", expect.any(String), 201],
        ["notification.send", "user", "Paulo Publicador", sent.body.notification.id, 201],
        ["notification.send", "user", "Paulo Publicador", scheduled.body.notification.id, 201],
        ["notification.cancel", "user", "Paulo Publicador", scheduled.body.notification.id, 200],
        ["user.delete", "user", ADMIN.name, user.id, 204],
        ["token.revoke", "user", ADMIN.name, token.token.id, 204],
        ["session.sign_out", "user", ADMIN.name, null, 204],
      ]);
      expect(total).toBe(14);
      expect(log.find((e) => e.action === "session.sign_in_failed" && e.actor.kind === "user")!.actor.id).toBe(adminId);
      // Secrets and passwords never reach the log.
      const raw = JSON.stringify(await server.database.db.selectFrom("audit_log").selectAll().execute());
      for (const secret of [token.secret, ADMIN.password, "senha-errada-123"]) expect(raw).not.toContain(secret);
    });

    it("filters by actor, action and period, pages, and exports the same as CSV (itself audited)", async () => {
      const all = await entries();
      const adminId = all.entries.find((e) => e.action === "setup.first_admin")!.actor.id;
      const byAdmin = await entries(`?actor=user:${adminId}`);
      expect(byAdmin.entries.every((e) => e.actor.id === adminId && e.actor.kind === "user")).toBe(true);
      expect(byAdmin.total).toBeGreaterThanOrEqual(6);
      const anonymous = await entries("?actor=anonymous");
      expect(anonymous.entries.map((e) => e.actor.name)).toEqual(["ninguem@exemplo.com.br"]);
      const failed = await entries("?action=session.sign_in_failed");
      expect(failed.total).toBe(2);
      expect(failed.actions).toEqual(expect.arrayContaining(["notification.send_exempt", "session.sign_in_failed", "user.delete"]));
      const future = await entries(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
      expect(future.total).toBe(0);
      const past = await entries(`?to=${encodeURIComponent(all.entries[0]!.at)}`);
      expect(past.total).toBe(all.total - all.entries.filter((e) => e.at === all.entries[0]!.at).length);
      const page1 = await entries("?pageSize=2");
      const page2 = await entries("?pageSize=2&page=2");
      expect(page1.entries.map((e) => e.id)).toEqual(all.entries.slice(0, 2).map((e) => e.id));
      expect(page2.entries.map((e) => e.id)).toEqual(all.entries.slice(2, 4).map((e) => e.id));

      const res = await fetch(`${server.url}${AUDIT}.csv?action=session.sign_in_failed`, { headers: { cookie: `${admin.cookieName}=${admin.session}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      const lines = (await res.text()).replace(/^\uFEFF/, "").trimEnd().split("\r\n");
      expect(lines[0]).toBe("Quando (UTC),Tipo de autor,ID do autor,Autor,Ação (código),Ação,Alvo,Status HTTP,Endereço IP,Navegador (User-Agent),ID da requisição");
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(",Desconhecido,,ninguem@exemplo.com.br,session.sign_in_failed,Tentativa de entrada recusada,,401,127.0.0.1,");
      expect((await entries("?action=audit_log.export")).total).toBe(1);
    });

    it("is for admins only, refuses bad filters in pt-BR, and has no way to edit or delete an entry", async () => {
      const { client: publisher } = await addUser(admin, "publisher");
      expect(await publisher.get(AUDIT)).toMatchObject({ status: 403, body: errorOf("forbidden") });
      expect((await new ApiClient(client()).get(AUDIT)).status).toBe(401);
      expect(await admin.get(`${AUDIT}?actor=alguem`)).toMatchObject({ status: 400, body: { error: { code: "invalid_audit_actor" } } });
      expect(await admin.get(`${AUDIT}?action=DROP%20TABLE`)).toMatchObject({ status: 400, body: { error: { code: "invalid_audit_action" } } });
      expect(await admin.get(`${AUDIT}?from=ontem`)).toMatchObject({ status: 400, body: { error: { code: "invalid_audit_period" } } });
      const t = new Date().toISOString();
      expect(await admin.get(`${AUDIT}?from=${t}&to=${t}`)).toMatchObject({ status: 400, body: errorOf("invalid_audit_period", "from") });
      const before = (await entries()).total;
      const [first] = (await entries()).entries;
      for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
        expect([404, 405]).toContain((await admin.request(method, AUDIT, {})).status);
        expect([404, 405]).toContain((await admin.request(method, `${AUDIT}/${first!.id}`, {})).status);
      }
      expect((await entries()).entries.find((e) => e.id === first!.id)).toEqual(first);
      expect((await entries()).total).toBe(before);
    });

    it("names only routes the server has (each table key is a documented method and path)", async () => {
      const doc = (await new ApiClient(client()).get("/api/v1/openapi.json")).body as { paths: Record<string, Record<string, unknown>> };
      const missing = Object.keys(AUDITED_ROUTES)
        .map((key) => key.split(" ") as [string, string])
        .filter(([, path]) => path.startsWith("/api/v1/"))
        .filter(([method, path]) => doc.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()] === undefined)
        .map(([method, path]) => `${method} ${path}`);
      expect(missing).toEqual([]);
      expect(Object.keys(AUDITED_ROUTES).length).toBeGreaterThan(40);
    });

    it("serves the retention periods the /privacidade page lists, publicly", async () => {
      const res = await new ApiClient(client()).get("/api/v1/privacy");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ eventRetentionDays: 395, removedRetentionDays: 30, auditRetentionDays: 730, consentRetentionDays: 1825, inactiveSubscriptionDays: 60, organisationName: null });
    });
  });
}

describe("GET /privacy follows the running configuration", () => {
  it("says null for what is kept forever", async () => {
    const server = await startTestServer({ env: { SINO_EVENT_RETENTION_DAYS: "90", SINO_REMOVED_RETENTION_DAYS: "0", SINO_AUDIT_RETENTION_DAYS: "365", SINO_SUBSCRIPTION_EXPIRY_DAYS: "0" } });
    try {
      const res = await new ApiClient({ url: server.url, origin: server.url }).get("/api/v1/privacy");
      expect(res.body).toEqual({ eventRetentionDays: 90, removedRetentionDays: null, auditRetentionDays: 365, consentRetentionDays: 1825, inactiveSubscriptionDays: null, organisationName: null });
    } finally {
      await server.close();
    }
  });
});
