import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import { DEFAULT_PUSH_HOSTS, MAX_ENDPOINT_LENGTH, type EndpointPolicy } from "../push/endpoint-policy.js";
import { parseVapidKeys, type VapidKeys } from "../push/vapid-keys.js";
import { createTranslator, type Translator } from "./i18n.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** SINO_PORT: TCP port to listen on (0 = any free port). */
  readonly port: number;
  /** SINO_HOST: address to listen on. */
  readonly host: string;
  /** SINO_PUBLIC_URL: the address people reach Sino at (links, VAPID subject default). */
  readonly publicUrl: string;
  /** SINO_DATA_DIR: folder for the SQLite file and other local data. */
  readonly dataDir: string;
  /** DATABASE_URL: postgres://… for PostgreSQL, otherwise a SQLite file. */
  readonly databaseUrl: string;
  /** SINO_DATABASE_POOL_SIZE: PostgreSQL connections per process. */
  readonly databasePoolSize: number;
  /** SINO_DATABASE_SCHEMA: PostgreSQL schema (search_path) for every connection. */
  readonly databaseSchema: string;
  /** SINO_VAPID_PUBLIC_KEY + SINO_VAPID_PRIVATE_KEY: fixed keys instead of the stored ones. */
  readonly vapidKeys: VapidKeys | undefined;
  /** SINO_VAPID_SUBJECT: contact for push services (RFC 8292 §2.1). */
  readonly vapidSubject: string;
  /** SINO_PUSH_ALLOWED_HOSTS + SINO_PUSH_ALLOW_PRIVATE: which push endpoints are accepted. */
  readonly endpointPolicy: EndpointPolicy;
  /** SINO_LOG_LEVEL. */
  readonly logLevel: LogLevel;
  /** SINO_WEB_DIR: the built web app (`npm run build:web`). */
  readonly webDir: string;
  /** SINO_PUBLISH_RATE_LIMIT: publish requests per minute per API token (or signed-in operator). */
  readonly publishRateLimit: number;
  /** SINO_TRUST_PROXY: which reverse proxies' X-Forwarded-For to believe (Fastify's `trustProxy`). */
  readonly trustProxy: boolean | number | string[];
  /** The delivery engine (SINO_WORKER_*, SINO_LEASE_SECONDS, SINO_PUSH_*, SINO_ENCRYPTION_THREADS). */
  readonly delivery: DeliveryConfig;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION: most channels one subscription may choose. */
  readonly maxChannelsPerSubscription: number;
  /** SINO_SUBSCRIPTION_EXPIRY_DAYS / SINO_SUBSCRIPTION_WARNING_DAYS: subscription hygiene. */
  readonly hygiene: HygieneConfig;
  /** SINO_TIME_ZONE: IANA time zone the stats' days are counted in. */
  readonly timeZone: string;
  /** SINO_STREAMS_MAX / SINO_STREAMS_MAX_PER_ADDRESS: open public live streams (Avisos) allowed. */
  readonly streams: StreamsConfig;
}

export interface StreamsConfig {
  /** Open public live streams per process, from everyone together. */
  readonly maxTotal: number;
  /** Open public live streams one client address may hold. */
  readonly maxPerAddress: number;
}

export interface HygieneConfig {
  /** A subscription not seen (registered again) for this many days is removed; 0 turns hygiene off. */
  readonly expiryDays: number;
  /** This many days before removal it gets one warning push. */
  readonly warningDays: number;
}

export interface DeliveryConfig {
  /** SINO_WORKER_EMBEDDED: `sino start` also runs worker lanes (SQLite needs it: one process). */
  readonly embedded: boolean;
  /** SINO_WORKER_LANES: concurrent lanes per process, each with one sub-batch in flight. */
  readonly lanes: number;
  /** SINO_WORKER_BATCH: subscriptions per sub-batch (sent at once, then one checkpoint). */
  readonly batchSize: number;
  /** SINO_WORKER_POLL_MS: how often an idle worker looks for work. */
  readonly pollMs: number;
  /** SINO_LEASE_SECONDS: how long a job stays with a worker that stopped checkpointing. */
  readonly leaseMs: number;
  /** SINO_ENCRYPTION_THREADS: encryption worker threads; 0 encrypts on the main thread. */
  readonly encryptionThreads: number;
  /** SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN: requests in flight to one push service. */
  readonly maxInFlightPerOrigin: number;
  /** SINO_PUSH_TIMEOUT_MS: deadline of one push request. */
  readonly pushTimeoutMs: number;
  /** SINO_PUSH_CA_FILE: extra CA certificates (PEM) to trust for push services; tests only. */
  readonly pushCaFile: string | undefined;
}

export interface ConfigOption {
  readonly env: string;
  /** The default as a user would write it (empty when there is none). */
  readonly default: string;
  readonly doc: string;
}

/** Every environment variable Sino reads, its default and what it does (the README mirrors this). */
export const CONFIG_OPTIONS: readonly ConfigOption[] = [
  { env: "SINO_PORT", default: "8080", doc: "TCP port the server listens on." },
  { env: "SINO_HOST", default: "0.0.0.0", doc: "Address the server listens on." },
  { env: "SINO_PUBLIC_URL", default: "http://localhost:8080", doc: "Public address of this Sino (https in production)." },
  { env: "SINO_DATA_DIR", default: "./data", doc: "Folder for local data, including the default SQLite file." },
  {
    env: "DATABASE_URL",
    default: "sqlite:<SINO_DATA_DIR>/sino.db",
    doc: "postgres://user@host/db for PostgreSQL; sqlite:<file> or a file path for SQLite.",
  },
  { env: "SINO_DATABASE_POOL_SIZE", default: "10", doc: "PostgreSQL connections per process." },
  { env: "SINO_DATABASE_SCHEMA", default: "public", doc: "PostgreSQL schema Sino's tables live in (search_path of every connection)." },
  { env: "SINO_VAPID_PUBLIC_KEY", default: "", doc: "VAPID public key (base64url); set with the private key to override the stored pair." },
  { env: "SINO_VAPID_PRIVATE_KEY", default: "", doc: "VAPID private key (base64url); generated on first start and kept in the database when unset." },
  {
    env: "SINO_VAPID_SUBJECT",
    default: "SINO_PUBLIC_URL if https, else mailto:sino@example.com",
    doc: "Contact given to push services: mailto:you@your-domain or an https URL.",
  },
  {
    env: "SINO_PUSH_ALLOWED_HOSTS",
    default: DEFAULT_PUSH_HOSTS.join(","),
    doc: "Comma-separated push-service hosts subscriptions may point to (*.domain allowed).",
  },
  { env: "SINO_PUSH_ALLOW_PRIVATE", default: "false", doc: "Tests only: accept push endpoints on private/loopback addresses." },
  { env: "SINO_LOG_LEVEL", default: "info", doc: `Log level: ${LOG_LEVELS.join(", ")}.` },
  { env: "SINO_WEB_DIR", default: "dist/web", doc: "Folder of the built web app." },
  { env: "SINO_PUBLISH_RATE_LIMIT", default: "60", doc: "Publish requests per minute each API token (or signed-in operator) may make." },
  {
    env: "SINO_TRUST_PROXY",
    default: "false",
    doc: "Behind a reverse proxy: true, a hop count, or comma-separated proxy addresses/CIDRs whose X-Forwarded-For gives the client address (sign-in throttling per address).",
  },
  {
    env: "SINO_WORKER_EMBEDDED",
    default: "true",
    doc: "sino start also delivers notifications (needed on SQLite); false leaves delivery to `sino worker` processes.",
  },
  { env: "SINO_WORKER_LANES", default: "4", doc: "Delivery lanes per process: each keeps one sub-batch of pushes in flight." },
  { env: "SINO_WORKER_BATCH", default: "250", doc: "Subscriptions a lane sends at once between two checkpoints (bounds duplicates after a crash)." },
  { env: "SINO_WORKER_POLL_MS", default: "1000", doc: "How often an idle worker looks for new sends and due retries, in ms." },
  {
    env: "SINO_LEASE_SECONDS",
    default: "60",
    doc: "How long a job stays with a worker that stopped checkpointing (killed) before another takes it; over twice SINO_PUSH_TIMEOUT_MS.",
  },
  {
    env: "SINO_ENCRYPTION_THREADS",
    default: "number of CPU cores",
    doc: "Worker threads that encrypt pushes (RFC 8291); 0 encrypts on the main thread.",
  },
  { env: "SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN", default: "512", doc: "Most push requests in flight to one push service; more wait in line." },
  { env: "SINO_PUSH_TIMEOUT_MS", default: "20000", doc: "Deadline of one push request in ms; a push that hangs is retried with backoff." },
  { env: "SINO_PUSH_CA_FILE", default: "", doc: "Extra CA certificates (PEM file) to trust for push services; for tests against a local fake." },
  { env: "SINO_MAX_CHANNELS_PER_SUBSCRIPTION", default: "20", doc: "Most channels one subscription may choose." },
  {
    env: "SINO_SUBSCRIPTION_EXPIRY_DAYS",
    default: "60",
    doc: "Subscriptions whose browser has not come back (re-registered) for this many days are removed; 0 never removes.",
  },
  { env: "SINO_SUBSCRIPTION_WARNING_DAYS", default: "7", doc: "Days before that removal when the subscription gets one warning push." },
  { env: "SINO_TIME_ZONE", default: "America/Sao_Paulo", doc: "IANA time zone the Painel's daily statistics are counted in." },
  { env: "SINO_STREAMS_MAX", default: "1000", doc: "Most open public live streams (Avisos) per process; past it new ones get 503 streams_unavailable." },
  {
    env: "SINO_STREAMS_MAX_PER_ADDRESS",
    default: "10",
    doc: "Most open public live streams one client address may hold; past it new ones get 429 too_many_streams.",
  },
];

export type Env = Readonly<Record<string, string | undefined>>;

/** Start-up refuses to run on a bad configuration; `issues` are pt-BR lines, one per problem. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly code = "config_invalid";
  constructor(
    readonly issues: readonly string[],
    heading: string,
  ) {
    super([heading, ...issues.map((i) => `- ${i}`)].join("\n"));
  }
}

/** Reads and validates the configuration; throws a `ConfigError` (pt-BR) listing every problem. */
export function loadConfig(env: Env = process.env, translator: Translator = createTranslator()): Config {
  const t = translator.t;
  const schema = createEnvSchema(t);
  const result = schema.safeParse(env);
  if (!result.success) {
    const issues = [...new Set(result.error.issues.map((issue) => issue.message))];
    throw new ConfigError(issues, t("cli:config.invalid"));
  }
  return Object.freeze(result.data);
}

function createEnvSchema(t: Translator["t"]) {
  const msg = (key: string, name: string, values?: Record<string, unknown>) => ({
    error: () => t(`cli:config.${key}`, { name, ...values }),
  });
  const optional = (name: string) =>
    z
      .string()
      .optional()
      .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()))
      .describe(name);

  return z
    .object({
      SINO_PORT: optional("SINO_PORT").pipe(integer(0, 65535, 8080, msg("port", "SINO_PORT"))),
      SINO_HOST: optional("SINO_HOST").default("0.0.0.0"),
      SINO_PUBLIC_URL: optional("SINO_PUBLIC_URL").pipe(
        z.string().refine(isHttpUrl, msg("url", "SINO_PUBLIC_URL")).default("http://localhost:8080"),
      ),
      SINO_DATA_DIR: optional("SINO_DATA_DIR").default("./data"),
      DATABASE_URL: optional("DATABASE_URL").pipe(
        z.string().refine(isDatabaseUrl, msg("databaseUrl", "DATABASE_URL")).optional(),
      ),
      SINO_DATABASE_POOL_SIZE: optional("SINO_DATABASE_POOL_SIZE").pipe(
        integer(1, 1000, 10, msg("positiveInteger", "SINO_DATABASE_POOL_SIZE")),
      ),
      SINO_DATABASE_SCHEMA: optional("SINO_DATABASE_SCHEMA").pipe(
        z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, msg("schema", "SINO_DATABASE_SCHEMA")).default("public"),
      ),
      SINO_VAPID_PUBLIC_KEY: optional("SINO_VAPID_PUBLIC_KEY"),
      SINO_VAPID_PRIVATE_KEY: optional("SINO_VAPID_PRIVATE_KEY"),
      SINO_VAPID_SUBJECT: optional("SINO_VAPID_SUBJECT").pipe(
        z.string().refine(isVapidSubject, msg("vapidSubject", "SINO_VAPID_SUBJECT")).optional(),
      ),
      SINO_PUSH_ALLOWED_HOSTS: optional("SINO_PUSH_ALLOWED_HOSTS").pipe(
        z
          .string()
          .transform((v) => v.split(",").map((h) => h.trim().toLowerCase()).filter((h) => h !== ""))
          .refine((hosts) => hosts.length > 0 && hosts.every(isHostPattern), msg("hosts", "SINO_PUSH_ALLOWED_HOSTS"))
          .optional(),
      ),
      SINO_PUSH_ALLOW_PRIVATE: optional("SINO_PUSH_ALLOW_PRIVATE").pipe(
        z.enum(["true", "false", "1", "0"], msg("boolean", "SINO_PUSH_ALLOW_PRIVATE")).default("false"),
      ),
      SINO_LOG_LEVEL: optional("SINO_LOG_LEVEL").pipe(
        z.enum(LOG_LEVELS, msg("logLevel", "SINO_LOG_LEVEL", { values: LOG_LEVELS.join(", ") })).default("info"),
      ),
      SINO_WEB_DIR: optional("SINO_WEB_DIR").default("dist/web"),
      SINO_PUBLISH_RATE_LIMIT: optional("SINO_PUBLISH_RATE_LIMIT").pipe(
        integer(1, 1_000_000, 60, msg("positiveInteger", "SINO_PUBLISH_RATE_LIMIT")),
      ),
      SINO_TRUST_PROXY: optional("SINO_TRUST_PROXY").pipe(
        z
          .string()
          .default("false")
          .refine((v) => /^(true|false|\d{1,2})$/.test(v) || v.split(",").every((p) => /^[0-9a-f.:/]+$/i.test(p.trim())), msg("trustProxy", "SINO_TRUST_PROXY"))
          .transform(parseTrustProxy),
      ),
      SINO_WORKER_EMBEDDED: optional("SINO_WORKER_EMBEDDED").pipe(
        z.enum(["true", "false", "1", "0"], msg("boolean", "SINO_WORKER_EMBEDDED")).default("true"),
      ),
      SINO_WORKER_LANES: optional("SINO_WORKER_LANES").pipe(integer(1, 256, 4, msg("positiveInteger", "SINO_WORKER_LANES"))),
      SINO_WORKER_BATCH: optional("SINO_WORKER_BATCH").pipe(integer(1, 10_000, 250, msg("positiveInteger", "SINO_WORKER_BATCH"))),
      SINO_WORKER_POLL_MS: optional("SINO_WORKER_POLL_MS").pipe(integer(1, 3_600_000, 1000, msg("positiveInteger", "SINO_WORKER_POLL_MS"))),
      SINO_LEASE_SECONDS: optional("SINO_LEASE_SECONDS").pipe(integer(1, 86_400, 60, msg("positiveInteger", "SINO_LEASE_SECONDS"))),
      SINO_ENCRYPTION_THREADS: optional("SINO_ENCRYPTION_THREADS").pipe(
        integer(0, 1024, availableParallelism(), msg("positiveInteger", "SINO_ENCRYPTION_THREADS")),
      ),
      SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN: optional("SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN").pipe(
        integer(1, 100_000, 512, msg("positiveInteger", "SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN")),
      ),
      SINO_PUSH_TIMEOUT_MS: optional("SINO_PUSH_TIMEOUT_MS").pipe(
        integer(1, 600_000, 20_000, msg("positiveInteger", "SINO_PUSH_TIMEOUT_MS")),
      ),
      SINO_PUSH_CA_FILE: optional("SINO_PUSH_CA_FILE").pipe(
        z.string().refine((path) => existsSync(path), msg("file", "SINO_PUSH_CA_FILE")).optional(),
      ),
      SINO_MAX_CHANNELS_PER_SUBSCRIPTION: optional("SINO_MAX_CHANNELS_PER_SUBSCRIPTION").pipe(
        integer(1, 1000, 20, msg("positiveInteger", "SINO_MAX_CHANNELS_PER_SUBSCRIPTION")),
      ),
      SINO_SUBSCRIPTION_EXPIRY_DAYS: optional("SINO_SUBSCRIPTION_EXPIRY_DAYS").pipe(
        integer(0, 3650, 60, msg("positiveInteger", "SINO_SUBSCRIPTION_EXPIRY_DAYS")),
      ),
      SINO_SUBSCRIPTION_WARNING_DAYS: optional("SINO_SUBSCRIPTION_WARNING_DAYS").pipe(
        integer(0, 3650, 7, msg("positiveInteger", "SINO_SUBSCRIPTION_WARNING_DAYS")),
      ),
      SINO_STREAMS_MAX: optional("SINO_STREAMS_MAX").pipe(integer(1, 1_000_000, 1000, msg("positiveInteger", "SINO_STREAMS_MAX"))),
      SINO_STREAMS_MAX_PER_ADDRESS: optional("SINO_STREAMS_MAX_PER_ADDRESS").pipe(
        integer(1, 1_000_000, 10, msg("positiveInteger", "SINO_STREAMS_MAX_PER_ADDRESS")),
      ),
      SINO_TIME_ZONE: optional("SINO_TIME_ZONE").pipe(
        z.string().default("America/Sao_Paulo").refine(isTimeZone, msg("timeZone", "SINO_TIME_ZONE")),
      ),
    })
    .superRefine((v, ctx) => {
      // A lease shorter than a stuck sub-batch would let a second worker take a job whose pushes
      // are still in flight: twice the request deadline leaves room for encryption and the commit.
      if (v.SINO_LEASE_SECONDS * 1000 <= 2 * v.SINO_PUSH_TIMEOUT_MS) {
        ctx.addIssue({ code: "custom", message: t("cli:config.leaseTooShort"), path: ["SINO_LEASE_SECONDS"] });
      }
      if (v.SINO_SUBSCRIPTION_EXPIRY_DAYS > 0 && v.SINO_SUBSCRIPTION_WARNING_DAYS >= v.SINO_SUBSCRIPTION_EXPIRY_DAYS) {
        ctx.addIssue({ code: "custom", message: t("cli:config.warningDays"), path: ["SINO_SUBSCRIPTION_WARNING_DAYS"] });
      }
      const pub = v.SINO_VAPID_PUBLIC_KEY;
      const priv = v.SINO_VAPID_PRIVATE_KEY;
      if ((pub === undefined) !== (priv === undefined)) {
        ctx.addIssue({ code: "custom", message: t("cli:config.vapidPair"), path: ["SINO_VAPID_PUBLIC_KEY"] });
      } else if (pub !== undefined && priv !== undefined && !isValidVapidPair({ publicKey: pub, privateKey: priv })) {
        ctx.addIssue({ code: "custom", message: t("cli:config.vapidKeys"), path: ["SINO_VAPID_PUBLIC_KEY"] });
      }
    })
    .transform((v): Config => {
      const dataDir = v.SINO_DATA_DIR;
      const vapidKeys =
        v.SINO_VAPID_PUBLIC_KEY !== undefined && v.SINO_VAPID_PRIVATE_KEY !== undefined
          ? { publicKey: v.SINO_VAPID_PUBLIC_KEY, privateKey: v.SINO_VAPID_PRIVATE_KEY }
          : undefined;
      return {
        port: v.SINO_PORT,
        host: v.SINO_HOST,
        publicUrl: v.SINO_PUBLIC_URL,
        dataDir,
        databaseUrl: v.DATABASE_URL ?? `sqlite:${join(dataDir, "sino.db")}`,
        databasePoolSize: v.SINO_DATABASE_POOL_SIZE,
        databaseSchema: v.SINO_DATABASE_SCHEMA,
        vapidKeys,
        vapidSubject: v.SINO_VAPID_SUBJECT ?? defaultVapidSubject(v.SINO_PUBLIC_URL),
        endpointPolicy: Object.freeze({
          allowedHosts: Object.freeze([...(v.SINO_PUSH_ALLOWED_HOSTS ?? DEFAULT_PUSH_HOSTS)]),
          allowPrivateAddresses: v.SINO_PUSH_ALLOW_PRIVATE === "true" || v.SINO_PUSH_ALLOW_PRIVATE === "1",
          maxLength: MAX_ENDPOINT_LENGTH,
        }),
        logLevel: v.SINO_LOG_LEVEL,
        webDir: isAbsolute(v.SINO_WEB_DIR) ? v.SINO_WEB_DIR : resolve(v.SINO_WEB_DIR),
        publishRateLimit: v.SINO_PUBLISH_RATE_LIMIT,
        trustProxy: v.SINO_TRUST_PROXY,
        delivery: Object.freeze({
          embedded: v.SINO_WORKER_EMBEDDED === "true" || v.SINO_WORKER_EMBEDDED === "1",
          lanes: v.SINO_WORKER_LANES,
          batchSize: v.SINO_WORKER_BATCH,
          pollMs: v.SINO_WORKER_POLL_MS,
          leaseMs: v.SINO_LEASE_SECONDS * 1000,
          encryptionThreads: v.SINO_ENCRYPTION_THREADS,
          maxInFlightPerOrigin: v.SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN,
          pushTimeoutMs: v.SINO_PUSH_TIMEOUT_MS,
          pushCaFile: v.SINO_PUSH_CA_FILE === undefined ? undefined : resolve(v.SINO_PUSH_CA_FILE),
        }),
        maxChannelsPerSubscription: v.SINO_MAX_CHANNELS_PER_SUBSCRIPTION,
        hygiene: Object.freeze({ expiryDays: v.SINO_SUBSCRIPTION_EXPIRY_DAYS, warningDays: v.SINO_SUBSCRIPTION_WARNING_DAYS }),
        timeZone: v.SINO_TIME_ZONE,
        streams: Object.freeze({ maxTotal: v.SINO_STREAMS_MAX, maxPerAddress: v.SINO_STREAMS_MAX_PER_ADDRESS }),
      };
    });
}

/** An IANA zone name the runtime knows (Intl throws a RangeError for any other). */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A decimal integer in [min, max]; `undefined` gives the default. */
function integer(min: number, max: number, fallback: number, message: { error: () => string }) {
  return z
    .string()
    .optional()
    .refine((v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max), message)
    .transform((v) => (v === undefined ? fallback : Number(v)));
}

/**
 * Without a trusted proxy, `request.ip` is the socket's peer; behind one, every client would look
 * like the proxy and share one sign-in throttle. Trusting X-Forwarded-For from anyone would let a
 * guesser pick a new address per attempt, so the proxies must be named.
 */
function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(",").map((p) => p.trim()).filter((p) => p !== "");
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

function isDatabaseUrl(value: string): boolean {
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      return new URL(value).hostname !== "";
    } catch {
      return false;
    }
  }
  // Anything else with a scheme other than sqlite: is most likely a typo (mysql://, postgre://).
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.startsWith("sqlite://");
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/**
 * RFC 8292 §2.1: a `mailto:` or `https:` URI. Push services (Apple's in particular) refuse
 * subjects such as `mailto:admin@localhost`, so the address must have a real-looking domain.
 */
export function isVapidSubject(value: string): boolean {
  if (value.startsWith("mailto:")) {
    const address = value.slice("mailto:".length);
    const at = address.lastIndexOf("@");
    if (at <= 0) return false;
    const domain = address.slice(at + 1);
    return DOMAIN.test(domain) && !/(^|\.)localhost$/i.test(domain) && !/[\s<>]/.test(address);
  }
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "" && url.hostname !== "localhost";
  } catch {
    return false;
  }
}

function defaultVapidSubject(publicUrl: string): string {
  const url = new URL(publicUrl);
  return url.protocol === "https:" && url.hostname !== "localhost" ? url.origin : "mailto:sino@example.com";
}

function isHostPattern(host: string): boolean {
  const bare = host.startsWith("*.") ? host.slice(2) : host;
  return /^[a-z0-9.\-:[\]]+$/.test(bare) && bare !== "" && !bare.startsWith(".");
}

function isValidVapidPair(keys: VapidKeys): boolean {
  try {
    parseVapidKeys(keys);
    return true;
  } catch {
    return false;
  }
}
