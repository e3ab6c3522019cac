/**
 * Control characters (U+0000, the other C0 controls, C1) in every text field of the API, on SQLite
 * and PostgreSQL: each request is refused with 400 `text_control_characters` naming the field (or
 * the field's own refusal: a user id's `user_id_invalid`, a signature's `user_signature_invalid`), no
 * row changes, and nothing is logged at error level (before this, U+0000 reached PostgreSQL, which
 * refused the statement: a 500 and a stack trace). The table is checked against the OpenAPI
 * document, so a text field added later without a row here fails this test.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../test/support/db.js";
import { ApiClient, addToken, addUser, errorOf, setUpAdmin } from "../../test/support/operators.js";
import { aBrowserSubscription } from "../../test/support/subscriptions.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";
import type { Schema } from "../store/schema.js";
import { createLogger } from "./logger.js";

type Who = "anonymous" | "admin" | "token";

interface Row {
  /** `METHOD path field`, as the OpenAPI check names it. */
  readonly field: string;
  readonly who: Who;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  /** The `field` of the error answer; undefined when the error names none. */
  readonly errorField: string | undefined;
  /** The error code, when the field has its own (a user id: `user_id_invalid`); default `text_control_characters`. */
  readonly code?: string;
  /** The status, when the field's code has its own (a message id that cannot exist: 404); default 400. */
  readonly status?: number;
}

const NUL = "\u0000";
const C1 = "\u0085"; // NEXT LINE, a C1 control
const ESC = "\u001B"; // a C0 control other than a line break

for (const dialect of DIALECTS) {
  describe(`control characters in request text on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    let anonymous: ApiClient;
    let token: string;
    let publisherId: string;
    let channelId: string;
    let webhookId: string;
    let segmentId: string;
    let templateId: string;
    let scheduledId: string;
    let siteId: string;
    let feedId: string;
    const sub = aBrowserSubscription();
    const logs: Array<{ level: number; msg?: string }> = [];

    beforeAll(async () => {
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString("utf8").split("\n")) if (line !== "") logs.push(JSON.parse(line) as { level: number });
          done();
        },
      });
      server = await startTestServer({ dialect, logger: createLogger("info", sink), env: { SINO_WORKER_POLL_MS: "50" } });
      const origin = { url: server.url, origin: server.url };
      admin = await setUpAdmin(origin);
      anonymous = new ApiClient(origin);
      token = (await addToken(admin, "publish")).secret;
      publisherId = (await addUser(admin, "publisher")).user.id;
      const channel = await admin.post("/api/v1/channels", { slug: "obras", name: "Obras" });
      expect(channel.status).toBe(201);
      channelId = channel.body.channel.id;
      expect((await anonymous.post("/api/v1/subscriptions", sub)).status).toBe(201);
      // Sino's own site verifies people (the default): with a secret, a signature is checked, not
      // just found missing.
      const sites = await admin.get("/api/v1/sites");
      const own = (sites.body.sites as Array<{ id: string; builtIn: boolean }>).find((site) => site.builtIn);
      expect((await admin.post(`/api/v1/sites/${own?.id}/identity-secret`, {})).status).toBe(200);
      siteId = String(own?.id);
      const feed = await admin.post("/api/v1/feeds", { url: "https://93.184.215.14/feed.xml", channel: null, mode: "draft" });
      expect(feed.status).toBe(201);
      feedId = feed.body.feed.id;
      // A webhook to update; disabled, so nothing is ever sent to it.
      const webhook = await admin.post("/api/v1/webhooks", { url: "https://93.184.215.14/sino", events: ["notification.completed"] });
      expect(webhook.status).toBe(201);
      webhookId = webhook.body.webhook.id;
      expect((await admin.patch(`/api/v1/webhooks/${webhookId}`, { enabled: false })).status).toBe(200);
      const segment = await admin.post("/api/v1/segments", { name: "Base", expression: { tag: "vip", op: "exists" } });
      expect(segment.status).toBe(201);
      segmentId = segment.body.segment.id;
      const template = await admin.post("/api/v1/templates", { name: "Base", title: "Aviso" });
      expect(template.status).toBe(201);
      templateId = template.body.template.id;
      const scheduled = await admin.post("/api/v1/notifications", { title: "Agendado", sendAt: new Date(Date.now() + 86_400_000).toISOString() });
      expect(scheduled.status).toBe(201);
      scheduledId = scheduled.body.notification.id;
    });
    afterAll(async () => {
      await server.close();
    });

    /** Every row of the tables a refused request could have touched, in a stable order. */
    async function snapshot(): Promise<string> {
      const tables: Array<keyof Schema> = [
        "users",
        "channels",
        "subscriptions",
        "subscription_channels",
        "notifications",
        "notification_channels",
        "notification_events",
        "delivery_jobs",
        "idempotency_keys",
        "login_attempts",
        "sites",
        "notification_people",
        "notification_recipients",
        "webhooks",
        "webhook_messages",
        "person_tags",
        "subscription_tags",
        "templates",
        "organisation",
      ];
      const db = server.database.db;
      const out: Record<string, unknown> = {};
      for (const table of tables) out[table] = await db.selectFrom(table).selectAll().execute();
      // Sessions and tokens record when they were last used; their number and names are what matter.
      out.sessions = (await db.selectFrom("sessions").select("user_id").execute()).length;
      out.api_tokens = await db.selectFrom("api_tokens").select(["id", "name", "revoked_at"]).orderBy("id").execute();
      return JSON.stringify(out, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
    }

    function rows(bad: string): Row[] {
      const note = { title: "Aviso", body: "Texto" };
      const proof = { endpoint: sub.endpoint, auth: sub.keys.auth };
      const q = encodeURIComponent(bad);
      const person = encodeURIComponent(`ana${bad}`);
      const user = { id: "ana" };
      // A signature is not text but hex, checked when it is verified (one answer for every wrong one).
      return [
        { field: "POST /api/v1/setup name", who: "anonymous", method: "POST", path: "/api/v1/setup", body: { name: `A${bad}`, email: "b@exemplo.com.br", password: "senha-longa-1" }, errorField: "name" },
        { field: "POST /api/v1/setup email", who: "anonymous", method: "POST", path: "/api/v1/setup", body: { name: "A", email: `b${bad}@exemplo.com.br`, password: "senha-longa-1" }, errorField: "email" },
        { field: "POST /api/v1/setup password", who: "anonymous", method: "POST", path: "/api/v1/setup", body: { name: "A", email: "b@exemplo.com.br", password: `senha-longa${bad}` }, errorField: "password" },
        { field: "POST /api/v1/session email", who: "anonymous", method: "POST", path: "/api/v1/session", body: { email: `ana${bad}@exemplo.com.br`, password: "qualquer-uma" }, errorField: "email" },
        { field: "POST /api/v1/session password", who: "anonymous", method: "POST", path: "/api/v1/session", body: { email: "ana@exemplo.com.br", password: `x${bad}` }, errorField: "password" },
        { field: "POST /api/v1/users name", who: "admin", method: "POST", path: "/api/v1/users", body: { name: `Bia${bad}`, email: "bia@exemplo.com.br", password: "senha-longa-1", role: "publisher" }, errorField: "name" },
        { field: "POST /api/v1/users email", who: "admin", method: "POST", path: "/api/v1/users", body: { name: "Bia", email: `bia${bad}@exemplo.com.br`, password: "senha-longa-1", role: "publisher" }, errorField: "email" },
        { field: "POST /api/v1/users password", who: "admin", method: "POST", path: "/api/v1/users", body: { name: "Bia", email: "bia@exemplo.com.br", password: `senha-longa${bad}`, role: "publisher" }, errorField: "password" },
        { field: "PATCH /api/v1/users/{id} name", who: "admin", method: "PATCH", path: `/api/v1/users/${publisherId}`, body: { name: `Bia${bad}` }, errorField: "name" },
        { field: "PATCH /api/v1/users/{id} password", who: "admin", method: "PATCH", path: `/api/v1/users/${publisherId}`, body: { password: `senha-longa${bad}` }, errorField: "password" },
        { field: "PUT /api/v1/session/password currentPassword", who: "admin", method: "PUT", path: "/api/v1/session/password", body: { currentPassword: `senha${bad}`, newPassword: "uma senha nova longa" }, errorField: "currentPassword" },
        { field: "PUT /api/v1/session/password newPassword", who: "admin", method: "PUT", path: "/api/v1/session/password", body: { currentPassword: "qualquer-uma", newPassword: `senha-longa${bad}` }, errorField: "newPassword" },
        { field: "POST /api/v1/tokens name", who: "admin", method: "POST", path: "/api/v1/tokens", body: { name: `deploy${bad}`, scope: "publish" }, errorField: "name" },
        { field: "POST /api/v1/channels slug", who: "admin", method: "POST", path: "/api/v1/channels", body: { slug: `novo${bad}`, name: "Novo" }, errorField: "slug" },
        { field: "POST /api/v1/channels name", who: "admin", method: "POST", path: "/api/v1/channels", body: { slug: "novo", name: `Novo${bad}` }, errorField: "name" },
        { field: "POST /api/v1/channels description", who: "admin", method: "POST", path: "/api/v1/channels", body: { slug: "novo", name: "Novo", description: `Sobre${bad}` }, errorField: "description" },
        { field: "PATCH /api/v1/channels/{id} name", who: "admin", method: "PATCH", path: `/api/v1/channels/${channelId}`, body: { name: `Obras${bad}` }, errorField: "name" },
        { field: "PATCH /api/v1/channels/{id} description", who: "admin", method: "PATCH", path: `/api/v1/channels/${channelId}`, body: { description: `Sobre${bad}` }, errorField: "description" },
        { field: "POST /api/v1/subscriptions endpoint", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, endpoint: `${sub.endpoint}${bad}` }, errorField: "endpoint" },
        { field: "POST /api/v1/subscriptions site", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, site: `chave${bad}` }, errorField: "site" },
        { field: "GET /api/v1/config site", who: "anonymous", method: "GET", path: `/api/v1/config?site=chave${q}`, errorField: "site" },
        { field: "POST /api/v1/sites origin", who: "admin", method: "POST", path: "/api/v1/sites", body: { origin: `https://www.exemplo.com.br${bad}` }, errorField: "origin" },
        { field: "POST /api/v1/subscriptions keys.p256dh", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, keys: { ...sub.keys, p256dh: `${sub.keys.p256dh}${bad}` } }, errorField: "keys.p256dh" },
        { field: "POST /api/v1/subscriptions keys.auth", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, keys: { ...sub.keys, auth: `${sub.keys.auth}${bad}` } }, errorField: "keys.auth" },
        { field: "POST /api/v1/subscriptions previous.endpoint", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, previous: { ...proof, endpoint: `${sub.endpoint}${bad}` } }, errorField: "previous.endpoint" },
        { field: "POST /api/v1/subscriptions previous.auth", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, previous: { ...proof, auth: `${sub.keys.auth}${bad}` } }, errorField: "previous.auth" },
        { field: "DELETE /api/v1/subscriptions endpoint", who: "anonymous", method: "DELETE", path: "/api/v1/subscriptions", body: { ...proof, endpoint: `${sub.endpoint}${bad}` }, errorField: "endpoint" },
        { field: "DELETE /api/v1/subscriptions auth", who: "anonymous", method: "DELETE", path: "/api/v1/subscriptions", body: { ...proof, auth: `${sub.keys.auth}${bad}` }, errorField: "auth" },
        { field: "PUT /api/v1/subscriptions/channels endpoint", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/channels", body: { ...proof, endpoint: `${sub.endpoint}${bad}`, channels: [] }, errorField: "endpoint" },
        { field: "PUT /api/v1/subscriptions/channels auth", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/channels", body: { ...proof, auth: `${sub.keys.auth}${bad}`, channels: [] }, errorField: "auth" },
        { field: "PUT /api/v1/subscriptions/channels channels", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/channels", body: { ...proof, channels: [`obras${bad}`] }, errorField: "channels.0" },
        { field: "POST /api/v1/events notificationId", who: "anonymous", method: "POST", path: "/api/v1/events", body: { ...proof, type: "shown", notificationId: `1${bad}` }, errorField: "notificationId" },
        { field: "POST /api/v1/events endpoint", who: "anonymous", method: "POST", path: "/api/v1/events", body: { ...proof, type: "shown", notificationId: "1", endpoint: `${sub.endpoint}${bad}` }, errorField: "endpoint" },
        { field: "POST /api/v1/events auth", who: "anonymous", method: "POST", path: "/api/v1/events", body: { ...proof, type: "shown", notificationId: "1", auth: `x${bad}` }, errorField: "auth" },
        { field: "GET /api/v1/notices channel", who: "anonymous", method: "GET", path: `/api/v1/notices?channel=obras${q}`, errorField: "channel" },
        { field: "GET /api/v1/notices before", who: "anonymous", method: "GET", path: `/api/v1/notices?before=abc${q}`, errorField: "before" },
        { field: "GET /api/v1/notices/stream channel", who: "anonymous", method: "GET", path: `/api/v1/notices/stream?channel=obras${q}`, errorField: "channel" },
        { field: "GET /api/v1/subscribers channel", who: "admin", method: "GET", path: `/api/v1/subscribers?channel=obras${q}`, errorField: "channel" },
        { field: "GET /api/v1/subscribers browser", who: "admin", method: "GET", path: `/api/v1/subscribers?browser=Chrome${q}`, errorField: "browser" },
        { field: "GET /api/v1/audience channels", who: "admin", method: "GET", path: `/api/v1/audience?channels=obras${q}`, errorField: "channels" },
        { field: "GET /api/v1/audience sites", who: "admin", method: "GET", path: `/api/v1/audience?sites=1${q}`, errorField: "sites" },
        { field: "GET /api/v1/notifications query", who: "admin", method: "GET", path: `/api/v1/notifications?query=obra${q}`, errorField: "query" },
        { field: "POST /api/v1/notifications title", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, title: `Aviso${bad}` }, errorField: "title" },
        { field: "POST /api/v1/notifications body", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, body: `Texto${bad}` }, errorField: "body" },
        { field: "POST /api/v1/notifications url", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, url: `/avisos${bad}` }, errorField: "url" },
        { field: "POST /api/v1/notifications icon", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, icon: `/icone.png${bad}` }, errorField: "icon" },
        { field: "POST /api/v1/notifications image", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, image: `/imagem.png${bad}` }, errorField: "image" },
        { field: "POST /api/v1/notifications audience.endpoint", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, audience: { type: "endpoint", endpoint: `${sub.endpoint}${bad}` } }, errorField: "audience.endpoint" },
        { field: "POST /api/v1/notifications audience.channels", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, audience: { type: "channels", channels: [`obras${bad}`] } }, errorField: "audience.channels.0" },
        { field: "POST /api/v1/subscriptions user.id", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, user: { id: `ana${bad}` } }, errorField: "user.id", code: "user_id_invalid" },
        { field: "POST /api/v1/subscriptions user.signature", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, user: { ...user, signature: `ab${bad}` } }, errorField: "user.signature", code: "user_signature_invalid", status: 403 },
        { field: "PUT /api/v1/subscriptions/user endpoint", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/user", body: { ...proof, endpoint: `${sub.endpoint}${bad}`, user }, errorField: "endpoint" },
        { field: "PUT /api/v1/subscriptions/user auth", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/user", body: { ...proof, auth: `${sub.keys.auth}${bad}`, user }, errorField: "auth" },
        { field: "PUT /api/v1/subscriptions/user user.id", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/user", body: { ...proof, user: { id: `ana${bad}` } }, errorField: "user.id", code: "user_id_invalid" },
        { field: "PUT /api/v1/subscriptions/user user.signature", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/user", body: { ...proof, user: { ...user, signature: `ab${bad}` } }, errorField: "user.signature", code: "user_signature_invalid", status: 403 },
        { field: "DELETE /api/v1/subscriptions/user endpoint", who: "anonymous", method: "DELETE", path: "/api/v1/subscriptions/user", body: { ...proof, endpoint: `${sub.endpoint}${bad}` }, errorField: "endpoint" },
        { field: "DELETE /api/v1/subscriptions/user auth", who: "anonymous", method: "DELETE", path: "/api/v1/subscriptions/user", body: { ...proof, auth: `${sub.keys.auth}${bad}` }, errorField: "auth" },
        { field: "PUT /api/v1/people/{userId}/subscriptions userId", who: "token", method: "PUT", path: `/api/v1/people/${person}/subscriptions`, body: { endpoint: sub.endpoint }, errorField: "userId", code: "user_id_invalid" },
        { field: "PUT /api/v1/people/{userId}/subscriptions endpoint", who: "token", method: "PUT", path: "/api/v1/people/ana/subscriptions", body: { endpoint: `${sub.endpoint}${bad}` }, errorField: "endpoint" },
        { field: "DELETE /api/v1/people/{userId}/subscriptions userId", who: "token", method: "DELETE", path: `/api/v1/people/${person}/subscriptions`, body: { endpoint: sub.endpoint }, errorField: "userId", code: "user_id_invalid" },
        { field: "DELETE /api/v1/people/{userId}/subscriptions endpoint", who: "token", method: "DELETE", path: "/api/v1/people/ana/subscriptions", body: { endpoint: `${sub.endpoint}${bad}` }, errorField: "endpoint" },
        { field: "GET /api/v1/people query", who: "admin", method: "GET", path: `/api/v1/people?query=ana${q}`, errorField: "query" },
        { field: "GET /api/v1/people/{userId} userId", who: "admin", method: "GET", path: `/api/v1/people/${person}`, errorField: "userId", code: "user_id_invalid" },
        { field: "GET /api/v1/people/{userId}/tags userId", who: "admin", method: "GET", path: `/api/v1/people/${person}/tags`, errorField: "userId", code: "user_id_invalid" },
        { field: "PUT /api/v1/people/{userId}/tags userId", who: "admin", method: "PUT", path: `/api/v1/people/${person}/tags`, body: { tags: { plano: "premium" } }, errorField: "userId", code: "user_id_invalid" },
        { field: "PATCH /api/v1/people/{userId}/tags userId", who: "admin", method: "PATCH", path: `/api/v1/people/${person}/tags`, body: { tags: { plano: "premium" } }, errorField: "userId", code: "user_id_invalid" },
        { field: "DELETE /api/v1/people/{userId}/tags userId", who: "admin", method: "DELETE", path: `/api/v1/people/${person}/tags`, errorField: "userId", code: "user_id_invalid" },
        { field: "DELETE /api/v1/people/{userId}/tags/{key} userId", who: "admin", method: "DELETE", path: `/api/v1/people/${person}/tags/plano`, errorField: "userId", code: "user_id_invalid" },
        { field: "DELETE /api/v1/people/{userId}/tags/{key} key", who: "admin", method: "DELETE", path: `/api/v1/people/ana/tags/plano${q}`, errorField: "key", code: "tag_key_invalid" },
        { field: "POST /api/v1/people/tags people.userId", who: "admin", method: "POST", path: "/api/v1/people/tags", body: { people: [{ userId: `ana${bad}`, tags: { plano: "premium" } }] }, errorField: "people.0.userId", code: "user_id_invalid" },
        { field: "POST /api/v1/subscriptions timeZone", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, timeZone: `America/Sao_Paulo${bad}` }, errorField: "timeZone" },
        { field: "PUT /api/v1/subscriptions/tags endpoint", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/tags", body: { ...proof, endpoint: `${sub.endpoint}${bad}`, tags: { tema: "escuro" } }, errorField: "endpoint" },
        { field: "PUT /api/v1/subscriptions/tags auth", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/tags", body: { ...proof, auth: `${sub.keys.auth}${bad}`, tags: { tema: "escuro" } }, errorField: "auth" },
        { field: "GET /api/v1/people/{userId}/notifications userId", who: "admin", method: "GET", path: `/api/v1/people/${person}/notifications`, errorField: "userId", code: "user_id_invalid" },
        { field: "GET /api/v1/subscribers user", who: "admin", method: "GET", path: `/api/v1/subscribers?user=ana${q}`, errorField: "user" },
        { field: "POST /api/v1/notifications audience.users", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, audience: { type: "users", users: [`ana${bad}`] } }, errorField: "audience.users.0", code: "user_id_invalid" },
        { field: "POST /api/v1/notifications audience.users.id", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, audience: { type: "users", users: [{ id: `ana${bad}` }] } }, errorField: "audience.users.0", code: "user_id_invalid" },
        { field: "POST /api/v1/notifications collapseKey", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, collapseKey: `placar${bad}` }, errorField: "collapseKey" },
        { field: "POST /api/v1/webhooks url", who: "admin", method: "POST", path: "/api/v1/webhooks", body: { url: `https://93.184.215.14/sino${bad}`, events: ["notification.completed"] }, errorField: "url" },
        { field: "POST /api/v1/webhooks description", who: "admin", method: "POST", path: "/api/v1/webhooks", body: { url: "https://93.184.215.14/sino", description: `CRM${bad}`, events: ["notification.completed"] }, errorField: "description" },
        { field: "POST /api/v1/webhooks events", who: "admin", method: "POST", path: "/api/v1/webhooks", body: { url: "https://93.184.215.14/sino", events: [`notification.completed${bad}`] }, errorField: "events", code: "webhook_events_invalid" },
        { field: "PATCH /api/v1/webhooks/{id} url", who: "admin", method: "PATCH", path: `/api/v1/webhooks/${webhookId}`, body: { url: `https://93.184.215.14/sino${bad}` }, errorField: "url" },
        { field: "PATCH /api/v1/webhooks/{id} description", who: "admin", method: "PATCH", path: `/api/v1/webhooks/${webhookId}`, body: { description: `CRM${bad}` }, errorField: "description" },
        { field: "PATCH /api/v1/webhooks/{id} events", who: "admin", method: "PATCH", path: `/api/v1/webhooks/${webhookId}`, body: { events: [`notification.completed${bad}`] }, errorField: "events", code: "webhook_events_invalid" },
        { field: "POST /api/v1/notifications audience.expression", who: "admin", method: "POST", path: "/api/v1/notifications", body: { ...note, audience: { type: "segment", expression: `tem vip${bad}` } }, errorField: "audience.expression" },
        ...(["title", "body", "url", "icon", "image", "collapseKey"] as const).map((name) => ({
          field: `PATCH /api/v1/notifications/{id} ${name}`,
          who: "admin" as const,
          method: "PATCH",
          path: `/api/v1/notifications/${scheduledId}`,
          body: { [name]: `/valor${bad}` },
          errorField: name,
        })),
        { field: "PATCH /api/v1/notifications/{id} audience.endpoint", who: "admin", method: "PATCH", path: `/api/v1/notifications/${scheduledId}`, body: { audience: { type: "endpoint", endpoint: `${sub.endpoint}${bad}` } }, errorField: "audience.endpoint" },
        { field: "PATCH /api/v1/notifications/{id} audience.channels", who: "admin", method: "PATCH", path: `/api/v1/notifications/${scheduledId}`, body: { audience: { type: "channels", channels: [`obras${bad}`] } }, errorField: "audience.channels.0" },
        { field: "PATCH /api/v1/notifications/{id} audience.expression", who: "admin", method: "PATCH", path: `/api/v1/notifications/${scheduledId}`, body: { audience: { type: "segment", expression: `tem vip${bad}` } }, errorField: "audience.expression" },
        { field: "PATCH /api/v1/notifications/{id} audience.users", who: "admin", method: "PATCH", path: `/api/v1/notifications/${scheduledId}`, body: { audience: { type: "users", users: [`ana${bad}`] } }, errorField: "audience.users.0", code: "user_id_invalid" },
        { field: "PATCH /api/v1/notifications/{id} audience.users.id", who: "admin", method: "PATCH", path: `/api/v1/notifications/${scheduledId}`, body: { audience: { type: "users", users: [{ id: `ana${bad}` }] } }, errorField: "audience.users.0", code: "user_id_invalid" },
        ...(["name", "title", "body", "url", "icon", "image", "collapseKey"] as const).flatMap((name) => [
          { field: `POST /api/v1/templates ${name}`, who: "admin" as const, method: "POST", path: "/api/v1/templates", body: { name: "Outro", title: "Aviso", [name]: `/valor${bad}` }, errorField: name },
          { field: `PATCH /api/v1/templates/{id} ${name}`, who: "admin" as const, method: "PATCH", path: `/api/v1/templates/${templateId}`, body: { [name]: `/valor${bad}` }, errorField: name },
        ]),
        { field: "POST /api/v1/templates audience.channels", who: "admin", method: "POST", path: "/api/v1/templates", body: { name: "Outro", title: "Aviso", audience: { type: "channels", channels: [`obras${bad}`] } }, errorField: "audience.channels.0" },
        { field: "PATCH /api/v1/templates/{id} audience.channels", who: "admin", method: "PATCH", path: `/api/v1/templates/${templateId}`, body: { audience: { type: "channels", channels: [`obras${bad}`] } }, errorField: "audience.channels.0" },
        { field: "PUT /api/v1/organisation name", who: "admin", method: "PUT", path: "/api/v1/organisation", body: { name: `Prefeitura${bad}` }, errorField: "name" },
        { field: "PUT /api/v1/organisation accentColor", who: "admin", method: "PUT", path: "/api/v1/organisation", body: { accentColor: `#1d4e89${bad}` }, errorField: "accentColor", code: "organisation_accent_invalid" },
        { field: "PUT /api/v1/organisation logo.data", who: "admin", method: "PUT", path: "/api/v1/organisation", body: { logo: { data: `iVBORw0KGgo${bad}` } }, errorField: "logo.data", code: "organisation_logo_invalid" },
        { field: "POST /api/v1/segments name", who: "admin", method: "POST", path: "/api/v1/segments", body: { name: `Novo${bad}`, expression: "tem vip" }, errorField: "name" },
        { field: "POST /api/v1/segments description", who: "admin", method: "POST", path: "/api/v1/segments", body: { name: "Novo", description: `Texto${bad}`, expression: "tem vip" }, errorField: "description" },
        { field: "POST /api/v1/segments expression", who: "admin", method: "POST", path: "/api/v1/segments", body: { name: "Novo", expression: `tem vip${bad}` }, errorField: "expression" },
        { field: "PATCH /api/v1/segments/{id} name", who: "admin", method: "PATCH", path: `/api/v1/segments/${segmentId}`, body: { name: `Novo${bad}` }, errorField: "name" },
        { field: "PATCH /api/v1/segments/{id} description", who: "admin", method: "PATCH", path: `/api/v1/segments/${segmentId}`, body: { description: `Texto${bad}` }, errorField: "description" },
        { field: "PATCH /api/v1/segments/{id} expression", who: "admin", method: "PATCH", path: `/api/v1/segments/${segmentId}`, body: { expression: `tem vip${bad}` }, errorField: "expression" },
        { field: "POST /api/v1/segments/count expression", who: "token", method: "POST", path: "/api/v1/segments/count", body: { expression: `plano = premium${bad}` }, errorField: "expression" },
        { field: "POST /api/v1/segments/explain expression", who: "admin", method: "POST", path: "/api/v1/segments/explain", body: { expression: `tem plano${bad}`, userId: "ana" }, errorField: "expression" },
        { field: "POST /api/v1/segments/explain userId", who: "admin", method: "POST", path: "/api/v1/segments/explain", body: { expression: "tem plano", userId: `ana${bad}` }, errorField: "userId", code: "user_id_invalid" },
        // Message ids are `msg_` and [A-Za-z0-9_-]: one with anything else cannot exist.
        { field: "POST /api/v1/webhooks/{id}/messages/{messageId}/resend messageId", who: "admin", method: "POST", path: `/api/v1/webhooks/${webhookId}/messages/msg_1${q}/resend`, errorField: "messageId", code: "webhook_message_not_found", status: 404 },
        { field: "POST /p/{channel} channel", who: "token", method: "POST", path: `/p/obras${q}`, body: "Backup concluído", errorField: "channel" },
        { field: "POST /p/{channel} body", who: "token", method: "POST", path: "/p/todos", body: `Backup${bad} concluído`, errorField: "Title" },
        { field: "POST /p/{channel} long body", who: "token", method: "POST", path: "/p/todos", body: `${"Backup concluído. ".repeat(6)}\nDetalhes${bad}`, errorField: "body" },
        // Header values cannot carry U+0000 (Node refuses the request), but RFC 2047 encoded words can.
        { field: "POST /p/{channel} Title", who: "token", method: "POST", path: "/p/todos", body: "Backup concluído", headers: { title: `=?UTF-8?B?${Buffer.from(`Servidor${bad}`).toString("base64")}?=` }, errorField: "Title" },
        { field: "POST /p/{channel} Click", who: "token", method: "POST", path: "/p/todos", body: "Backup concluído", headers: { click: `=?UTF-8?B?${Buffer.from(`/status${bad}`).toString("base64")}?=` }, errorField: "Click" },
        // The full notification (issue 19): action buttons' labels and links, the badge; in every way to send.
        ...(["POST /api/v1/notifications", `PATCH /api/v1/notifications/${scheduledId}`, "POST /api/v1/templates", `PATCH /api/v1/templates/${templateId}`] as const).flatMap((route) => {
          const [method, path] = route.split(" ") as [string, string];
          const documented = `${method} ${path.replace(/\/\d+$/, "/{id}")}`;
          const base = method === "PATCH" ? {} : path.endsWith("templates") ? { name: "Outro", title: "Aviso" } : note;
          return [
            { field: `${documented} actions.label`, who: "admin" as const, method, path, body: { ...base, actions: [{ label: `Ver${bad}`, url: "/ver" }] }, errorField: "actions.0.label" },
            { field: `${documented} actions.url`, who: "admin" as const, method, path, body: { ...base, actions: [{ label: "Ver", url: `/ver${bad}` }] }, errorField: "actions.0.url" },
            { field: `${documented} badge`, who: "admin" as const, method, path, body: { ...base, badge: `/selo.png${bad}` }, errorField: "badge" },
          ];
        }),
        // Issues 18 and 20: quiet hours, personal data, consent, the audit log, feeds, site keys, import.
        { field: "PUT /api/v1/subscriptions/quiet-hours endpoint", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/quiet-hours", body: { ...proof, endpoint: `${sub.endpoint}${bad}`, quietHours: "22:00-07:00" }, errorField: "endpoint" },
        { field: "PUT /api/v1/subscriptions/quiet-hours auth", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/quiet-hours", body: { ...proof, auth: `${sub.keys.auth}${bad}`, quietHours: "22:00-07:00" }, errorField: "auth" },
        { field: "PUT /api/v1/subscriptions/quiet-hours quietHours", who: "anonymous", method: "PUT", path: "/api/v1/subscriptions/quiet-hours", body: { ...proof, quietHours: `22:00-07:00${bad}` }, errorField: "quietHours", code: "quiet_hours_invalid" },
        { field: "POST /api/v1/subscriptions/quiet-hours/lookup endpoint", who: "anonymous", method: "POST", path: "/api/v1/subscriptions/quiet-hours/lookup", body: { ...proof, endpoint: `${sub.endpoint}${bad}` }, errorField: "endpoint" },
        { field: "POST /api/v1/subscriptions/quiet-hours/lookup auth", who: "anonymous", method: "POST", path: "/api/v1/subscriptions/quiet-hours/lookup", body: { ...proof, auth: `${sub.keys.auth}${bad}` }, errorField: "auth" },
        { field: "POST /api/v1/subscriptions/data endpoint", who: "anonymous", method: "POST", path: "/api/v1/subscriptions/data", body: { ...proof, endpoint: `${sub.endpoint}${bad}` }, errorField: "endpoint" },
        { field: "POST /api/v1/subscriptions/data auth", who: "anonymous", method: "POST", path: "/api/v1/subscriptions/data", body: { ...proof, auth: `${sub.keys.auth}${bad}` }, errorField: "auth" },
        { field: "DELETE /api/v1/subscriptions/data endpoint", who: "anonymous", method: "DELETE", path: "/api/v1/subscriptions/data", body: { ...proof, endpoint: `${sub.endpoint}${bad}` }, errorField: "endpoint" },
        { field: "DELETE /api/v1/subscriptions/data auth", who: "anonymous", method: "DELETE", path: "/api/v1/subscriptions/data", body: { ...proof, auth: `${sub.keys.auth}${bad}` }, errorField: "auth" },
        { field: "POST /api/v1/subscriptions applicationServerKey", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, applicationServerKey: `BKey${bad}` }, errorField: "applicationServerKey" },
        { field: "POST /api/v1/subscriptions consent.text", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, consent: { source: "bell", text: `Ativar${bad}`, version: "pt-BR-1" } }, errorField: "consent.text" },
        { field: "POST /api/v1/subscriptions consent.version", who: "anonymous", method: "POST", path: "/api/v1/subscriptions", body: { ...sub, consent: { source: "bell", text: "Ativar", version: `pt-BR-1${bad}` } }, errorField: "consent.version" },
        { field: "GET /api/v1/privacy/people/{userId} userId", who: "admin", method: "GET", path: `/api/v1/privacy/people/${person}`, errorField: "userId", code: "user_id_invalid" },
        { field: "DELETE /api/v1/privacy/people/{userId} userId", who: "admin", method: "DELETE", path: `/api/v1/privacy/people/${person}`, errorField: "userId", code: "user_id_invalid" },
        { field: "GET /api/v1/audit action", who: "admin", method: "GET", path: `/api/v1/audit?action=user.create${q}`, errorField: "action", code: "invalid_audit_action" },
        { field: "GET /api/v1/audit actor", who: "admin", method: "GET", path: `/api/v1/audit?actor=user:1${q}`, errorField: "actor", code: "invalid_audit_actor" },
        { field: "GET /api/v1/audit.csv action", who: "admin", method: "GET", path: `/api/v1/audit.csv?action=user.create${q}`, errorField: "action", code: "invalid_audit_action" },
        { field: "GET /api/v1/audit.csv actor", who: "admin", method: "GET", path: `/api/v1/audit.csv?actor=user:1${q}`, errorField: "actor", code: "invalid_audit_actor" },
        { field: "POST /api/v1/feeds url", who: "admin", method: "POST", path: "/api/v1/feeds", body: { url: `https://93.184.215.14/feed.xml${bad}`, channel: null, mode: "auto" }, errorField: "url" },
        { field: "POST /api/v1/feeds channel", who: "admin", method: "POST", path: "/api/v1/feeds", body: { url: "https://93.184.215.14/outro.xml", channel: `obras${bad}`, mode: "auto" }, errorField: "channel" },
        { field: "PATCH /api/v1/feeds/{id} channel", who: "admin", method: "PATCH", path: `/api/v1/feeds/${feedId}`, body: { channel: `obras${bad}` }, errorField: "channel" },
        { field: "PATCH /api/v1/sites/{id} sendWindow", who: "admin", method: "PATCH", path: `/api/v1/sites/${siteId}`, body: { sendWindow: `08:00-21:00${bad}` }, errorField: "sendWindow", code: "site_send_window_invalid" },
        { field: "PATCH /api/v1/sites/{id} timeZone", who: "admin", method: "PATCH", path: `/api/v1/sites/${siteId}`, body: { timeZone: `America/Sao_Paulo${bad}` }, errorField: "timeZone", code: "site_time_zone_invalid" },
        { field: "PUT /api/v1/sites/{id}/vapid-key key", who: "admin", method: "PUT", path: `/api/v1/sites/${siteId}/vapid-key`, body: { mode: "import", key: `chave${bad}` }, errorField: "key" },
        { field: "POST /api/v1/subscribers/import site", who: "admin", method: "POST", path: `/api/v1/subscribers/import?site=chave${q}`, body: "endpoint,p256dh,auth\n", errorField: "site", code: "site_not_found", status: 404 },
        ...(
          [
            ["X-Actions", "x-actions", (value: string) => `view, ${value}, /ver`],
            ["X-Icon", "x-icon", (value: string) => `/icone.png${value}`],
            ["X-Image", "x-image", (value: string) => `/imagem.png${value}`],
            ["X-Badge", "x-badge", (value: string) => `/selo.png${value}`],
            ["X-Tag", "x-tag", (value: string) => `placar${value}`],
          ] as const
        ).map(([header, name, value]) => ({
          field: `POST /p/{channel} ${header}`,
          who: "token" as const,
          method: "POST",
          path: "/p/todos",
          body: "Backup concluído",
          headers: { [name]: `=?UTF-8?B?${Buffer.from(value(`Rótulo${bad}`)).toString("base64")}?=` },
          errorField: header,
        })),
      ];
    }

    async function send(row: Row) {
      const client = row.who === "admin" ? admin : row.who === "token" ? new ApiClient(anonymous.server, { bearer: token }) : anonymous;
      const headers = { ...(typeof row.body === "string" ? { "content-type": "text/plain" } : {}), ...row.headers };
      return client.request(row.method, row.path, row.body, headers);
    }

    for (const [label, bad] of [
      ["U+0000", NUL],
      ["a C1 control (U+0085)", C1],
      ["a C0 control (ESC)", ESC],
    ] as const) {
      it(`refuses ${label} in every text field with 400 text_control_characters (or the field's own code), storing and logging nothing`, async () => {
        for (const row of rows(bad)) {
          const before = await snapshot();
          const logged = logs.length;
          const res = await send(row);
          expect({ field: row.field, status: res.status, body: res.body }).toEqual({
            field: row.field,
            status: row.status ?? 400,
            body: errorOf(row.code ?? "text_control_characters", row.errorField),
          });
          expect(await snapshot(), row.field).toBe(before);
          expect(logs.slice(logged).filter((entry) => entry.level >= 50), row.field).toEqual([]);
        }
      });
    }

    it("refuses a tab or a line break in single-line fields but keeps them in a notification's body", async () => {
      for (const bad of ["\t", "\n", "\r"]) {
        const title = await admin.post("/api/v1/notifications", { title: `Linha 1${bad}Linha 2` });
        expect(title).toMatchObject({ status: 400, body: errorOf("text_control_characters", "title") });
        const name = await admin.post("/api/v1/channels", { slug: "novo", name: `Novo${bad}canal` });
        expect(name).toMatchObject({ status: 400, body: errorOf("text_control_characters", "name") });
      }
      const sent = await admin.post("/api/v1/notifications", { title: "Duas linhas", body: "Linha 1\r\nLinha 2\tcom tabulação", audience: { type: "channels", channels: ["obras"] } });
      expect(sent.status).toBe(201);
      expect(sent.body.notification.body).toBe("Linha 1\r\nLinha 2\tcom tabulação");
      const quick = await new ApiClient(anonymous.server, { bearer: token }).request("POST", "/p/obras", "Primeira linha\nSegunda linha", { "content-type": "text/plain" });
      expect(quick.status).toBe(201);
      expect(quick.body.notification.body).toBe("Primeira linha\nSegunda linha");
    });

    it("has a row for every text field the OpenAPI document lists", async () => {
      const doc = (await anonymous.get("/api/v1/openapi.json")).body as OpenApiDocument;
      const covered = new Set(rows(NUL).map((row) => row.field.replace(/ long body$/, " body")));
      expect(textFieldsOf(doc)).toEqual([...covered].sort());
    });
  });
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>; requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
}

/**
 * `METHOD path field` for every free-text string a request may carry: body properties (nested
 * ones dotted, array items by the array's name), query and path parameters. Strings already held
 * to a pattern of digits (ids), enums, constants and date-times cannot carry a control character.
 */
function textFieldsOf(doc: OpenApiDocument): string[] {
  const fields = new Set<string>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const prefix = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== "header" && parameter.schema !== undefined && isFreeText(parameter.schema)) fields.add(`${prefix} ${parameter.name}`);
      }
      for (const content of Object.values(operation.requestBody?.content ?? {})) collect(content.schema, "", (field) => fields.add(`${prefix} ${field}`.trimEnd()));
    }
  }
  // The quick publish body is the message text; its headers are listed in the table by name.
  fields.delete("POST /p/{channel}");
  // An import's body is a file: each row goes through a registration's checks and is refused, by
  // line, with its code in the summary (src/server/import/run-import.test.ts), not the request.
  fields.delete("POST /api/v1/subscribers/import");
  for (const header of ["Title", "Click", "body", "X-Actions", "X-Icon", "X-Image", "X-Badge", "X-Tag"]) fields.add(`POST /p/{channel} ${header}`);
  return [...fields].sort();
}

function collect(schema: JsonSchema, at: string, add: (field: string) => void): void {
  for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) collect(member, at, add);
  if (schema.properties !== undefined) {
    for (const [name, property] of Object.entries(schema.properties)) collect(property, at === "" ? name : `${at}.${name}`, add);
  }
  if (schema.items !== undefined) collect(schema.items, at, add);
  if (isFreeText(schema)) add(at);
}

function isFreeText(schema: JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.includes("string")) return false;
  if (schema.enum !== undefined || schema.const !== undefined || schema.format === "date-time") return false;
  return schema.pattern === undefined || !/^\^\\d/.test(schema.pattern);
}
