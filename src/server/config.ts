import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import { defaultDeliveryOptions } from "../delivery/delivery-options.js";
import type { HygieneOptions } from "../delivery/hygiene-task.js";
import type { DeliveryRuntimeOptions, FeedRuntimeOptions, WebhookRuntimeOptions } from "../delivery/runtime.js";
import { DEFAULT_PUSH_HOSTS, MAX_ENDPOINT_LENGTH, type EndpointPolicy } from "../push/endpoint-policy.js";
import { DEFAULT_MAX_IN_FLIGHT_PER_ORIGIN, DEFAULT_PUSH_TIMEOUT_MS } from "../push/transport.js";
import { parseVapidKeys, type VapidKeys } from "../push/vapid-keys.js";
import { DEFAULT_TIME_ZONE } from "../shared/time/zoned-time.js";
import { DEFAULT_SEND_WINDOW, parseDailyWindow } from "../shared/time/daily-window.js";
import { DEFAULT_POOL_SIZE } from "../store/database.js";
import type { EngagementRules } from "../store/delivery-gates-repository.js";
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
  /** SINO_EVENT_RETENTION_DAYS / SINO_REMOVED_RETENTION_DAYS / SINO_AUDIT_RETENTION_DAYS (0: keep). */
  readonly retention: RetentionConfig;
  /** SINO_TIME_ZONE: IANA time zone the stats' days are counted in. */
  readonly timeZone: string;
  /** SINO_SEND_WINDOW: `HH:MM-HH:MM` in each subscriber's zone when marketing goes out (a site may set its own). */
  readonly sendWindow: string;
  /** SINO_CONSENT_RETENTION_DAYS: how long a consent record outlives its subscription (purgeEndedConsents). */
  readonly consentRetentionDays: number;
  /** SINO_SLEEPING_DAYS: no click and no visit for this many days makes a subscription sleeping. */
  readonly sleepingDays: number;
  /** gates: SINO_FREQUENCY_CAP / SINO_SLEEPING_DAYS (0 turns a rule off). */
  readonly engagement: EngagementRules;
  /** SINO_SITE_SUBSCRIBE_RATE_LIMIT / SINO_SITE_MAX_SUBSCRIPTIONS: abuse limits of registered sites. */
  readonly sites: SitesConfig;
  /** SINO_STREAMS_MAX / SINO_STREAMS_MAX_PER_ADDRESS: open public live streams (Avisos) allowed. */
  readonly streams: StreamsConfig;
  /** SINO_IDENTITY_SECRET_GRACE_HOURS, in ms: how long a site's replaced identity secret stays valid. */
  readonly identitySecretGraceMs: number;
  /** SINO_WEBHOOK_*: outbound webhooks (URL policy, deadline, retention). */
  readonly webhooks: WebhooksConfig;
  /** SINO_WORKER_HEALTH_PORT: where `sino worker` answers /healthz and /readyz (on SINO_HOST); undefined: nowhere. */
  readonly workerHealthPort: number | undefined;
  /** SINO_METRICS_TOKEN / SINO_METRICS_LISTEN: who may read GET /metrics, and where. */
  readonly metrics: MetricsConfig;
  /** SINO_WRITE_QUEUE: most items each group-committed write path holds waiting. */
  readonly writeQueue: number;
  /** SINO_IMPORT_MAX_BYTES: the largest subscriber import file, after decompression. */
  readonly importMaxBytes: number;
  /** SINO_FEED_*: RSS/Atom feeds polled into sends (branch feeds). */
  readonly feeds: FeedsConfig;
}

export interface FeedsConfig extends FeedRuntimeOptions {
  /** SINO_FEED_MIN_INTERVAL_SECONDS: the shortest poll interval an admin may set (never under 60). */
  readonly minIntervalSeconds: number;
  /** SINO_FEED_INTERVAL_SECONDS: a new feed's interval when the admin sets none. */
  readonly defaultIntervalSeconds: number;
}

/**
 * GET /metrics (Prometheus) is off unless one of these is set: the numbers describe the whole
 * installation (sends, queue, push services), which the public must not read.
 */
export interface MetricsConfig {
  /** The bearer token a scraper sends; when set, every /metrics answer requires it. */
  readonly token: string | undefined;
  /** A listener of its own serving only /metrics (and then not on the main one); `sino worker` needs it. */
  readonly listen: ListenAddress | undefined;
}

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export interface WebhooksConfig extends WebhookRuntimeOptions {
  /** SINO_WEBHOOK_ALLOW_PRIVATE: tests and local development only (http and private addresses). */
  readonly allowPrivateAddresses: boolean;
}

export interface SitesConfig {
  /** Registrations per minute one client address may make on registered sites. */
  readonly subscribeRateLimit: number;
  /** Most subscriptions one registered site may hold; 0: no cap. Sino's own site is never capped. */
  readonly maxSubscriptionsPerSite: number;
}

export interface StreamsConfig {
  /** Open public live streams per process, from everyone together. */
  readonly maxTotal: number;
  /** Open public live streams one client address may hold. */
  readonly maxPerAddress: number;
}

/** Retention, in days (0: keep forever); read by the hygiene task's retention pass and GET /privacy. */
export interface RetentionConfig {
  readonly eventDays: number;
  readonly removedDays: number;
  readonly auditDays: number;
  readonly consentDays: number;
}

/** SINO_SUBSCRIPTION_EXPIRY_DAYS / SINO_SUBSCRIPTION_WARNING_DAYS, as the hygiene task reads them. */
export type HygieneConfig = Pick<HygieneOptions, "expiryDays" | "warningDays">;

export interface DeliveryConfig extends DeliveryRuntimeOptions {
  /** SINO_WORKER_EMBEDDED: `sino start` also runs worker lanes (SQLite needs it: one process). */
  readonly embedded: boolean;
}

/** How an option reads in the docs: its environment variable, its default as a user would write it, one line. */
export interface ConfigOption {
  readonly env: string;
  /** The default as a user would write it (empty when there is none). */
  readonly default: string;
  readonly doc: string;
}

type Message = { error: () => string };
/** The pt-BR message for this option: `cli:config.<key>` with the option's name. */
type MessageFor = (key: string, values?: Record<string, unknown>) => Message;

/** What an option's schema reads: the trimmed variable, undefined when unset or blank. */
type OptionSchema = z.ZodType<unknown, string | undefined>;

interface OptionSpec<D, S extends OptionSchema> {
  /** The value used when the variable is unset (undefined: none). */
  readonly default: D;
  /** The default as the docs show it, when `String(default)` would not read well. */
  readonly shown?: string;
  readonly doc: string;
  /** Validates the trimmed text (undefined when unset) and applies the default. */
  readonly schema: (fallback: D, message: MessageFor) => S;
}

/** An option with its default applied: how the docs show it and its schema for a translator. */
interface ConfigEntry<S extends OptionSchema> {
  readonly shown: string;
  readonly doc: string;
  readonly schema: (message: MessageFor) => S;
}

/** Infers `D` from `default`, checks `schema` against it, and binds the two. */
function option<D, S extends OptionSchema>(spec: OptionSpec<D, S>): ConfigEntry<S> {
  return {
    shown: spec.shown ?? (spec.default === undefined ? "" : String(spec.default)),
    doc: spec.doc,
    schema: (message) => spec.schema(spec.default, message),
  };
}

const text = (fallback: string) => z.string().default(fallback);
const flag = (fallback: boolean, message: Message) =>
  z.enum(["true", "false", "1", "0"], message).default(String(fallback) as "true" | "false").transform((v) => v === "true" || v === "1");
const optionalText = () => z.string().optional();

/**
 * Every environment variable Sino reads, in one place: its default, its line of docs (the README's
 * configuration table mirrors these) and its schema. Defaults that a lower layer also needs are
 * that layer's constants, so push, store and delivery used on their own behave as configured.
 */
const OPTIONS = {
  SINO_PORT: option({ default: 8080, doc: "TCP port the server listens on.", schema: (d, m) => integer(0, 65535, d, m("port")) }),
  SINO_HOST: option({ default: "0.0.0.0", doc: "Address the server listens on.", schema: text }),
  SINO_PUBLIC_URL: option({
    default: "http://localhost:8080",
    doc: "Public address of this Sino (https in production).",
    schema: (d, m) => z.string().refine(isHttpUrl, m("url")).default(d),
  }),
  SINO_DATA_DIR: option({ default: "./data", doc: "Folder for local data, including the default SQLite file.", schema: text }),
  DATABASE_URL: option({
    default: undefined,
    shown: "sqlite:<SINO_DATA_DIR>/sino.db",
    doc: "postgres://user@host/db for PostgreSQL; sqlite:<file> or a file path for SQLite.",
    schema: (_d, m) => z.string().refine(isDatabaseUrl, m("databaseUrl")).optional(),
  }),
  SINO_DATABASE_POOL_SIZE: option({
    default: DEFAULT_POOL_SIZE,
    doc: "PostgreSQL connections per process.",
    schema: (d, m) => integer(1, 1000, d, m("positiveInteger")),
  }),
  SINO_DATABASE_SCHEMA: option({
    default: "public",
    doc: "PostgreSQL schema Sino's tables live in (search_path of every connection).",
    schema: (d, m) => z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, m("schema")).default(d),
  }),
  SINO_VAPID_PUBLIC_KEY: option({
    default: undefined,
    doc: "VAPID public key (base64url); set with the private key to override the stored pair.",
    schema: optionalText,
  }),
  SINO_VAPID_PRIVATE_KEY: option({
    default: undefined,
    doc: "VAPID private key (base64url); generated on first start and kept in the database when unset.",
    schema: optionalText,
  }),
  SINO_VAPID_SUBJECT: option({
    default: undefined,
    shown: "SINO_PUBLIC_URL if https, else mailto:sino@example.com",
    doc: "Contact given to push services: mailto:you@your-domain or an https URL.",
    schema: (_d, m) => z.string().refine(isVapidSubject, m("vapidSubject")).optional(),
  }),
  SINO_PUSH_ALLOWED_HOSTS: option({
    default: DEFAULT_PUSH_HOSTS,
    shown: DEFAULT_PUSH_HOSTS.join(","),
    doc: "Comma-separated push-service hosts subscriptions may point to (*.domain allowed; a port other than 443 only as host:port).",
    schema: (d, m) =>
      z
        .string()
        .transform((v) => v.split(",").map((h) => h.trim().toLowerCase()).filter((h) => h !== ""))
        .refine((hosts) => hosts.length > 0 && hosts.every(isHostPattern), m("hosts"))
        .optional()
        .transform((hosts): readonly string[] => hosts ?? d),
  }),
  SINO_PUSH_ALLOW_PRIVATE: option({
    default: false,
    doc: "Tests only: accept push endpoints on private/loopback addresses.",
    schema: (d, m) => flag(d, m("boolean")),
  }),
  SINO_LOG_LEVEL: option({
    default: "info" as LogLevel,
    doc: `Log level: ${LOG_LEVELS.join(", ")}.`,
    schema: (d, m) => z.enum(LOG_LEVELS, m("logLevel", { values: LOG_LEVELS.join(", ") })).default(d),
  }),
  SINO_WEB_DIR: option({ default: "dist/web", doc: "Folder of the built web app.", schema: text }),
  SINO_PUBLISH_RATE_LIMIT: option({
    default: 60,
    doc: "Publish requests per minute each API token (or signed-in operator) may make.",
    schema: (d, m) => integer(1, 1_000_000, d, m("positiveInteger")),
  }),
  SINO_TRUST_PROXY: option({
    default: "false",
    doc: "Behind a reverse proxy: true, a hop count, or comma-separated proxy addresses/CIDRs whose X-Forwarded-For gives the client address (sign-in throttling per address).",
    schema: (d, m) =>
      z
        .string()
        .default(d)
        .refine((v) => /^(true|false|\d{1,2})$/.test(v) || v.split(",").every((p) => /^[0-9a-f.:/]+$/i.test(p.trim())), m("trustProxy"))
        .transform(parseTrustProxy),
  }),
  SINO_WORKER_EMBEDDED: option({
    default: true,
    doc: "sino start also delivers notifications (needed on SQLite); false leaves delivery to `sino worker` processes.",
    schema: (d, m) => flag(d, m("boolean")),
  }),
  SINO_WORKER_LANES: option({
    default: defaultDeliveryOptions().lanes,
    doc: "Delivery lanes per process: each keeps one sub-batch of pushes in flight.",
    schema: (d, m) => integer(1, 256, d, m("positiveInteger")),
  }),
  SINO_WORKER_BATCH: option({
    default: defaultDeliveryOptions().batchSize,
    doc: "Subscriptions a lane sends at once between two checkpoints (bounds duplicates after a crash).",
    schema: (d, m) => integer(1, 10_000, d, m("positiveInteger")),
  }),
  SINO_WORKER_POLL_MS: option({
    default: defaultDeliveryOptions().pollMs,
    doc: "How often an idle worker looks for new sends and due retries, in ms.",
    schema: (d, m) => integer(1, 3_600_000, d, m("positiveInteger")),
  }),
  SINO_LEASE_SECONDS: option({
    default: defaultDeliveryOptions().leaseMs / 1000,
    doc: "How long a job stays with a worker that stopped checkpointing (killed) before another takes it; over twice SINO_PUSH_TIMEOUT_MS.",
    schema: (d, m) => integer(1, 86_400, d, m("positiveInteger")),
  }),
  SINO_ENCRYPTION_THREADS: option({
    default: defaultDeliveryOptions().encryptionThreads,
    shown: "number of CPU cores",
    doc: "Worker threads that encrypt pushes (RFC 8291); 0 encrypts on the main thread.",
    schema: (d, m) => integer(0, 1024, d, m("positiveInteger")),
  }),
  SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN: option({
    default: DEFAULT_MAX_IN_FLIGHT_PER_ORIGIN,
    doc: "Most push requests in flight to one push service; more wait in line.",
    schema: (d, m) => integer(1, 100_000, d, m("positiveInteger")),
  }),
  SINO_PUSH_TIMEOUT_MS: option({
    default: DEFAULT_PUSH_TIMEOUT_MS,
    doc: "Deadline of one push request in ms; a push that hangs is retried with backoff.",
    schema: (d, m) => integer(1, 600_000, d, m("positiveInteger")),
  }),
  SINO_PUSH_CA_FILE: option({
    default: undefined,
    doc: "Extra CA certificates (PEM file) to trust for push services; for tests against a local fake.",
    schema: (_d, m) => z.string().refine((path) => existsSync(path), m("file")).optional(),
  }),
  SINO_MAX_CHANNELS_PER_SUBSCRIPTION: option({
    default: 20,
    doc: "Most channels one subscription may choose.",
    schema: (d, m) => integer(1, 1000, d, m("positiveInteger")),
  }),
  SINO_SUBSCRIPTION_EXPIRY_DAYS: option({
    default: 60,
    doc: "Subscriptions whose browser has not come back (re-registered) for this many days are removed; 0 never removes.",
    schema: (d, m) => integer(0, 3650, d, m("positiveInteger")),
  }),
  SINO_SUBSCRIPTION_WARNING_DAYS: option({
    default: 7,
    doc: "Days before that removal when the subscription gets one warning push.",
    schema: (d, m) => integer(0, 3650, d, m("positiveInteger")),
  }),
  SINO_CONSENT_RETENTION_DAYS: option({
    default: 1825,
    doc: "Days a subscription's consent record is kept after the subscription ends (proof of consent, LGPD Art. 8); 0 deletes it at the next purge.",
    schema: (d, m) => integer(0, 36500, d, m("positiveInteger")),
  }),
  SINO_FREQUENCY_CAP: option({
    default: 3,
    doc: "Most marketing pushes one subscription gets in any 24 hours (a site may set its own); 0: no cap.",
    schema: (d, m) => integer(0, 1000, d, m("positiveInteger")),
  }),
  SINO_SLEEPING_DAYS: option({
    default: 30,
    doc: "Days with no click and no visit after which a subscription sleeps: no marketing but one re-engagement send per period; 0: nobody sleeps.",
    schema: (d, m) => integer(0, 3650, d, m("positiveInteger")),
  }),
  SINO_TIME_ZONE: option({
    default: DEFAULT_TIME_ZONE,
    doc: "IANA time zone the Painel's daily statistics are counted in; also the zone of subscribers that reported none, on sites that set none.",
    schema: (d, m) => z.string().default(d).refine(isTimeZone, m("timeZone")),
  }),
  SINO_SEND_WINDOW: option({
    default: DEFAULT_SEND_WINDOW,
    doc: "Hours (HH:MM-HH:MM, in each subscriber's time zone) when marketing pushes go out; outside them they wait for the opening. A site may set its own; 00:00-00:00 is all day.",
    schema: (d, m) => z.string().default(d).refine((v) => parseDailyWindow(v) !== undefined, m("sendWindow")),
  }),
  SINO_SITE_SUBSCRIBE_RATE_LIMIT: option({
    default: 30,
    doc: "Subscription registrations per minute one client address may make from registered sites (the embedded bell).",
    schema: (d, m) => integer(1, 1_000_000, d, m("positiveInteger")),
  }),
  SINO_SITE_MAX_SUBSCRIPTIONS: option({
    default: 1_000_000,
    doc: "Most subscriptions one registered site may collect; 0 means no cap. Sino's own page is not capped.",
    schema: (d, m) => integer(0, 1_000_000_000, d, m("positiveInteger")),
  }),
  SINO_STREAMS_MAX: option({
    default: 1000,
    doc: "Most open public live streams (Avisos) per process; past it new ones get 503 streams_unavailable.",
    schema: (d, m) => integer(1, 1_000_000, d, m("positiveInteger")),
  }),
  SINO_STREAMS_MAX_PER_ADDRESS: option({
    // Mobile carriers (CGNAT, the norm in Brazil) put thousands of phones behind one address, so a
    // low cap refuses real people; a quarter of the default total still keeps one address from
    // taking the whole server. A refused page falls back to polling the list.
    default: 250,
    doc: "Most open public live streams one client address may hold; past it new ones get 429 too_many_streams (the Avisos page then polls the list).",
    schema: (d, m) => integer(1, 1_000_000, d, m("positiveInteger")),
  }),
  SINO_IDENTITY_SECRET_GRACE_HOURS: option({
    default: 24,
    doc: "Hours a site's previous identity secret is still accepted after it is replaced (0: not at all).",
    schema: (d, m) => integer(0, 8760, d, m("positiveInteger")),
  }),
  SINO_WEBHOOK_ALLOW_PRIVATE: option({
    default: false,
    doc: "Tests and local development only: webhook URLs may use plain http and loopback/private addresses.",
    schema: (d, m) => flag(d, m("boolean")),
  }),
  SINO_WEBHOOK_TIMEOUT_MS: option({
    default: 10_000,
    doc: "Deadline of one webhook delivery in ms; a receiver that does not answer in time is retried with backoff.",
    schema: (d, m) => integer(100, 120_000, d, m("positiveInteger")),
  }),
  SINO_WEBHOOK_RETENTION_DAYS: option({
    default: 7,
    doc: "Delivered webhook messages are deleted after this many days; failed ones are kept; 0 keeps everything.",
    schema: (d, m) => integer(0, 3650, d, m("positiveInteger")),
  }),
  SINO_WEBHOOK_CA_FILE: option({
    default: undefined,
    doc: "Extra CA certificates (PEM file) to trust for webhook receivers; for tests against a local receiver.",
    schema: (_d, m) => z.string().refine((path) => existsSync(path), m("file")).optional(),
  }),
  SINO_FEED_MIN_INTERVAL_SECONDS: option({
    default: 60,
    doc: "Shortest interval, in seconds, between two polls of one feed (at least 60); each poll adds up to 20 % at random.",
    schema: (d, m) => integer(60, 86_400, d, m("positiveInteger")),
  }),
  SINO_FEED_INTERVAL_SECONDS: option({
    default: 300,
    doc: "Poll interval, in seconds, of a new feed when the admin sets none (at least SINO_FEED_MIN_INTERVAL_SECONDS).",
    schema: (d, m) => integer(60, 86_400, d, m("positiveInteger")),
  }),
  SINO_FEED_TIMEOUT_MS: option({
    default: 10_000,
    doc: "Deadline of one feed fetch in ms, redirects included; a feed that does not answer in time is tried again at its next poll.",
    schema: (d, m) => integer(100, 120_000, d, m("positiveInteger")),
  }),
  SINO_FEED_MAX_BYTES: option({
    default: 2_000_000,
    doc: "Largest feed document, in bytes, Sino reads; a larger answer is refused and recorded as an error.",
    schema: (d, m) => integer(1_000, 50_000_000, d, m("positiveInteger")),
  }),
  SINO_FEED_MAX_ITEMS_PER_POLL: option({
    default: 5,
    doc: "New items one poll of a feed publishes; older new items beyond it are recorded as skipped, never sent (no flood).",
    schema: (d, m) => integer(1, 100, d, m("positiveInteger")),
  }),
  SINO_FEED_ALLOW_PRIVATE: option({
    default: false,
    doc: "Tests and local development only: feed URLs may use plain http and loopback/private addresses.",
    schema: (d, m) => flag(d, m("boolean")),
  }),
  SINO_FEED_CA_FILE: option({
    default: undefined,
    doc: "Extra CA certificates (PEM file) to trust for feeds; for tests against a local https feed.",
    schema: (_d, m) => z.string().refine((path) => existsSync(path), m("file")).optional(),
  }),
  SINO_WORKER_HEALTH_PORT: option({
    default: undefined,
    doc: "Port (on SINO_HOST) where `sino worker`, which has no HTTP server, answers GET /healthz and GET /readyz; unset: no probes.",
    schema: (_d, m) =>
      z
        .string()
        .refine((v) => /^\d+$/.test(v) && Number(v) <= 65535, m("port"))
        .transform(Number)
        .optional(),
  }),
  SINO_METRICS_TOKEN: option({
    default: undefined,
    doc: "Bearer token Prometheus sends to read GET /metrics (at least 16 characters); without it or SINO_METRICS_LISTEN, /metrics is off.",
    schema: (_d, m) => z.string().refine((token) => token.length >= MIN_METRICS_TOKEN_LENGTH && !/\s/.test(token), m("metricsToken", { min: MIN_METRICS_TOKEN_LENGTH })).optional(),
  }),
  SINO_METRICS_LISTEN: option({
    default: undefined,
    doc: "host:port of a separate listener that serves only GET /metrics (then not on the main port); how a sino worker exposes its metrics.",
    schema: (_d, m) => z.string().refine((value) => parseListenAddress(value) !== undefined, m("listenAddress")).optional(),
  }),
  // audit (issue 18): retention and the audit log.
  SINO_EVENT_RETENTION_DAYS: option({
    default: 395,
    doc: "Notification events (shown, clicked, closed) older than this many days become daily counts per send and are deleted; the charts' totals do not change; 0 keeps them.",
    schema: (d, m) => integer(0, 36_500, d, m("positiveInteger")),
  }),
  SINO_REMOVED_RETENTION_DAYS: option({
    default: 30,
    doc: "Days the rows a removed subscription leaves (its removal record, results and events) are kept before they are purged (the charts keep their counts); 0 keeps them.",
    schema: (d, m) => integer(0, 36_500, d, m("positiveInteger")),
  }),
  SINO_AUDIT_RETENTION_DAYS: option({
    default: 730,
    doc: "Days an operator action stays in the audit log before it is deleted; 0 keeps it forever.",
    schema: (d, m) => integer(0, 36_500, d, m("positiveInteger")),
  }),
  SINO_WRITE_QUEUE: option({
    default: 20_000,
    doc: "Reports, registrations, unsubscribes or channel choices waiting to be written (each path its own queue); past it the API answers 503 with Retry-After.",
    schema: (d, m) => integer(1, 1_000_000, d, m("positiveInteger")),
  }),
  SINO_IMPORT_MAX_BYTES: option({
    // A million web-push subscriptions are about 250 MB as CSV or NDJSON; 1 GiB leaves room for
    // OneSignal's wider rows. Counted after gunzip, so a small .gz cannot expand past it.
    default: 1_073_741_824,
    doc: "Largest subscriber import file in bytes (after decompression), for `sino import` and POST /api/v1/subscribers/import.",
    schema: (d, m) => integer(1024, 1_000_000_000_000, d, m("positiveInteger")),
  }),
};

type Options = typeof OPTIONS;

/** Every environment variable Sino reads, its default and what it does (the README mirrors this). */
export const CONFIG_OPTIONS: readonly ConfigOption[] = Object.entries(OPTIONS).map(([env, entry]) => ({ env, default: entry.shown, doc: entry.doc }));

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
  const result = schema.safeParse(readOptions(env));
  if (!result.success) {
    const issues = [...new Set(result.error.issues.map((issue) => issue.message))];
    throw new ConfigError(issues, t("cli:config.invalid"));
  }
  return Object.freeze(result.data);
}

/** The variables Sino reads, trimmed; a blank one counts as unset. */
function readOptions(env: Env): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.keys(OPTIONS).map((name) => {
      const value = env[name]?.trim();
      return [name, value === "" ? undefined : value];
    }),
  );
}

function createEnvSchema(t: Translator["t"]) {
  const shape = Object.fromEntries(
    Object.entries(OPTIONS).map(([name, entry]) => {
      const message: MessageFor = (key, values) => ({ error: () => t(`cli:config.${key}`, { name, ...values }) });
      return [name, entry.schema(message)];
    }),
  ) as { [K in keyof Options]: ReturnType<Options[K]["schema"]> };

  return z
    .object(shape)
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
          allowedHosts: Object.freeze([...v.SINO_PUSH_ALLOWED_HOSTS]),
          allowPrivateAddresses: v.SINO_PUSH_ALLOW_PRIVATE,
          maxLength: MAX_ENDPOINT_LENGTH,
        }),
        logLevel: v.SINO_LOG_LEVEL,
        webDir: isAbsolute(v.SINO_WEB_DIR) ? v.SINO_WEB_DIR : resolve(v.SINO_WEB_DIR),
        publishRateLimit: v.SINO_PUBLISH_RATE_LIMIT,
        trustProxy: v.SINO_TRUST_PROXY,
        delivery: Object.freeze({
          embedded: v.SINO_WORKER_EMBEDDED,
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
        sendWindow: v.SINO_SEND_WINDOW,
        consentRetentionDays: v.SINO_CONSENT_RETENTION_DAYS,
        sleepingDays: v.SINO_SLEEPING_DAYS,
        engagement: Object.freeze({ frequencyCap: v.SINO_FREQUENCY_CAP, sleepingDays: v.SINO_SLEEPING_DAYS }),
        sites: Object.freeze({
          subscribeRateLimit: v.SINO_SITE_SUBSCRIBE_RATE_LIMIT,
          maxSubscriptionsPerSite: v.SINO_SITE_MAX_SUBSCRIPTIONS,
        }),
        streams: Object.freeze({ maxTotal: v.SINO_STREAMS_MAX, maxPerAddress: v.SINO_STREAMS_MAX_PER_ADDRESS }),
        identitySecretGraceMs: v.SINO_IDENTITY_SECRET_GRACE_HOURS * 3_600_000,
        webhooks: Object.freeze({
          allowPrivateAddresses: v.SINO_WEBHOOK_ALLOW_PRIVATE,
          timeoutMs: v.SINO_WEBHOOK_TIMEOUT_MS,
          retentionDays: v.SINO_WEBHOOK_RETENTION_DAYS,
          caFile: v.SINO_WEBHOOK_CA_FILE === undefined ? undefined : resolve(v.SINO_WEBHOOK_CA_FILE),
        }),
        workerHealthPort: v.SINO_WORKER_HEALTH_PORT,
        metrics: Object.freeze({
          token: v.SINO_METRICS_TOKEN,
          listen: v.SINO_METRICS_LISTEN === undefined ? undefined : parseListenAddress(v.SINO_METRICS_LISTEN),
        }),
        writeQueue: v.SINO_WRITE_QUEUE,
        retention: Object.freeze({ eventDays: v.SINO_EVENT_RETENTION_DAYS, removedDays: v.SINO_REMOVED_RETENTION_DAYS, auditDays: v.SINO_AUDIT_RETENTION_DAYS, consentDays: v.SINO_CONSENT_RETENTION_DAYS }),
        importMaxBytes: v.SINO_IMPORT_MAX_BYTES,
        feeds: Object.freeze({
          minIntervalSeconds: v.SINO_FEED_MIN_INTERVAL_SECONDS,
          defaultIntervalSeconds: Math.max(v.SINO_FEED_INTERVAL_SECONDS, v.SINO_FEED_MIN_INTERVAL_SECONDS),
          allowPrivateAddresses: v.SINO_FEED_ALLOW_PRIVATE,
          timeoutMs: v.SINO_FEED_TIMEOUT_MS,
          maxBytes: v.SINO_FEED_MAX_BYTES,
          maxItemsPerPoll: v.SINO_FEED_MAX_ITEMS_PER_POLL,
          caFile: v.SINO_FEED_CA_FILE === undefined ? undefined : resolve(v.SINO_FEED_CA_FILE),
        }),
      };
    });
}

/** Shorter tokens can be guessed; a scraper's configuration holds any length as easily. */
const MIN_METRICS_TOKEN_LENGTH = 16;

/** `127.0.0.1:9464`, `[::1]:9464`, `0.0.0.0:9464` or `metrics.local:9464` (a port from 0; 0 picks a free one). */
export function parseListenAddress(value: string): ListenAddress | undefined {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^\s:[\]]+)):(\d{1,5})$/i.exec(value);
  if (match === null) return undefined;
  const port = Number(match[3]);
  if (port > 65535) return undefined;
  return Object.freeze({ host: match[1] ?? match[2]!, port });
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
