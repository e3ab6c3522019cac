import type { AddressInfo } from "node:net";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { generateVapidKeys } from "../../src/push/vapid-keys.js";
import { buildApp, type AuthOptions } from "../../src/server/app.js";
import { loadConfig } from "../../src/server/config.js";
import { createTranslator } from "../../src/server/i18n.js";
import { createLogger } from "../../src/server/logger.js";
import { SESSION_COOKIE, sessionCookieName } from "../../src/shared/api/auth.js";
import type { Dialect } from "../../src/store/database.js";
import { createTestDatabase, type TestDatabase } from "./db.js";
import { createRepositories } from "../../src/store/repositories.js";
import type { Ingestion } from "../../src/server/ingestion/ingestion.js";

export interface OperatorServerOptions {
  readonly dialect: Dialect;
  readonly env?: Record<string, string>;
  /** A clock the test moves (epoch ms). */
  readonly now?: () => number;
  readonly auth?: AuthOptions;
  /** Called with the app before it listens: a test may add a test-only route. */
  readonly beforeListen?: (app: FastifyInstance) => void | Promise<void>;
  /** Share another server's database (two processes on one database). */
  readonly database?: TestDatabase;
  /** Where the server logs (default: nowhere). */
  readonly logger?: FastifyBaseLogger;
  /** The group-committed write paths to use (default: built by the app from its repositories). */
  readonly ingestion?: Ingestion;
}

export interface OperatorServer {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** The origin the server's own pages have (the Host the requests are sent to). */
  readonly origin: string;
  /** The session cookie's name: `__Host-sino_session` when the public URL is https. */
  readonly sessionCookie: string;
  readonly app: FastifyInstance;
  readonly database: TestDatabase;
  close(): Promise<void>;
}

/**
 * The real application (buildApp) on 127.0.0.1 and a free port, on a fresh SQLite file or
 * PostgreSQL schema, with a clock and sleep the test controls. No web app: API only.
 */
export async function startOperatorServer(options: OperatorServerOptions): Promise<OperatorServer> {
  const database = options.database ?? (await createTestDatabase(options.dialect));
  const config = loadConfig({
    SINO_PORT: "0",
    SINO_HOST: "127.0.0.1",
    SINO_PUBLIC_URL: "https://sino.example.com",
    DATABASE_URL: database.location.url,
    SINO_LOG_LEVEL: process.env.SINO_TEST_LOG_LEVEL ?? "silent",
    SINO_WEB_DIR: "/nonexistent",
    ...options.env,
  });
  const app = await buildApp({
    config,
    repositories: createRepositories(database),
    vapidKeys: generateVapidKeys(),
    logger: options.logger ?? createLogger("silent"),
    translator: createTranslator(),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    ...(options.ingestion === undefined ? {} : { ingestion: options.ingestion }),
  });
  await options.beforeListen?.(app);
  await app.listen({ host: "127.0.0.1", port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    origin: url,
    sessionCookie: sessionCookieName(new URL(config.publicUrl).protocol === "https:"),
    app,
    database,
    async close() {
      await app.close();
      if (options.database === undefined) await database.cleanup();
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads JSON freely
  body: any;
}

/**
 * A browser-like client: keeps the session cookie it is given, sends it back, and sends the
 * server's own Origin on state-changing requests (as browsers do), unless told otherwise.
 */
export class ApiClient {
  session: string | undefined;
  /** The session cookie's name as the server set it (`__Host-sino_session` over https). */
  cookieName: string;
  constructor(
    readonly server: Pick<OperatorServer, "url" | "origin"> & { readonly sessionCookie?: string },
    readonly defaults: { origin?: string | null; bearer?: string } = {},
  ) {
    this.cookieName = server.sessionCookie ?? SESSION_COOKIE;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string | null> = {},
  ): Promise<ApiResponse> {
    const h: Record<string, string> = {};
    if (body !== undefined) h["content-type"] = "application/json";
    if (method !== "GET" && method !== "HEAD") {
      const origin = this.defaults.origin === undefined ? this.server.origin : this.defaults.origin;
      if (origin !== null) h.origin = origin;
    }
    if (this.session !== undefined) h.cookie = `${this.cookieName}=${this.session}`;
    if (this.defaults.bearer !== undefined) h.authorization = `Bearer ${this.defaults.bearer}`;
    for (const [k, v] of Object.entries(headers)) {
      if (v === null) delete h[k];
      else h[k] = v;
    }
    const res = await fetch(this.server.url + path, {
      method,
      headers: h,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, value] = (pair ?? "").split("=");
      if (name === SESSION_COOKIE || name === `__Host-${SESSION_COOKIE}`) this.cookieName = name;
      if (name === this.cookieName) this.session = value === "" || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(cookie) ? undefined : value;
    }
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text === "" ? undefined : JSON.parse(text) };
  }

  get(path: string, headers?: Record<string, string | null>) {
    return this.request("GET", path, undefined, headers);
  }
  post(path: string, body?: unknown, headers?: Record<string, string | null>) {
    return this.request("POST", path, body, headers);
  }
  patch(path: string, body?: unknown, headers?: Record<string, string | null>) {
    return this.request("PATCH", path, body, headers);
  }
  put(path: string, body?: unknown, headers?: Record<string, string | null>) {
    return this.request("PUT", path, body, headers);
  }
  delete(path: string, body?: unknown, headers?: Record<string, string | null>) {
    return this.request("DELETE", path, body, headers);
  }
}

export const ADMIN = { name: "Ana Admin", email: "ana@exemplo.com.br", password: "cavalo-correto-bateria" } as const;

/** Runs the one-time set-up; returns a client signed in as that first admin. */
export async function setUpAdmin(server: Pick<OperatorServer, "url" | "origin">): Promise<ApiClient> {
  const client = new ApiClient(server);
  const res = await client.post("/api/v1/setup", ADMIN);
  if (res.status !== 201) throw new Error(`set-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  return client;
}

let counter = 0;

/** Creates a user through the API (as `admin`) and returns them with a client signed in as them. */
export async function addUser(
  admin: ApiClient,
  role: "admin" | "publisher",
  overrides: { name?: string; email?: string; password?: string } = {},
): Promise<{ user: { id: string; name: string; email: string; role: string }; client: ApiClient; password: string }> {
  counter += 1;
  const password = overrides.password ?? `senha-de-teste-${counter}`;
  const res = await admin.post("/api/v1/users", {
    name: overrides.name ?? `Pessoa ${counter}`,
    email: overrides.email ?? `pessoa${counter}-${Date.now()}@exemplo.com.br`,
    password,
    role,
  });
  if (res.status !== 201) throw new Error(`user creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  const client = new ApiClient(admin.server);
  const signIn = await client.post("/api/v1/session", { email: res.body.user.email, password });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
  return { user: res.body.user, client, password };
}

/** Creates an API token as `admin`; returns its presentation and secret. */
export async function addToken(admin: ApiClient, scope: "publish" | "admin", name = `token ${scope}`) {
  const res = await admin.post("/api/v1/tokens", { name, scope });
  if (res.status !== 201) throw new Error(`token creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { token: { id: string; prefix: string; name: string }; secret: string };
}

/** The pt-BR error body the API answers with for `code`. */
export function errorOf(code: string, field?: string) {
  const message = createTranslator().t(`errors:${code}`);
  return { error: { code, message, ...(field === undefined ? {} : { field }) } };
}

/**
 * The error body for a refusal that names its limit (limitError in src/server/errors.ts): the
 * code's message, then the limit's sentence (`api:limits.<reason>`) with the bound in pt-BR digits.
 */
export function limitErrorOf(code: string, field: string | undefined, reason: string, bound: number) {
  const translator = createTranslator();
  const n = new Intl.NumberFormat("pt-BR").format(bound);
  const sentence = translator.t(`api:limits.${reason}`, { max: n, min: n, field: field ?? "" });
  const message = `${translator.t(`errors:${code}`)} ${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}`;
  return { error: { code, message, ...(field === undefined ? {} : { field }) } };
}
