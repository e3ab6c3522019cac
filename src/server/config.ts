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
    })
    .superRefine((v, ctx) => {
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
        vapidKeys,
        vapidSubject: v.SINO_VAPID_SUBJECT ?? defaultVapidSubject(v.SINO_PUBLIC_URL),
        endpointPolicy: Object.freeze({
          allowedHosts: Object.freeze([...(v.SINO_PUSH_ALLOWED_HOSTS ?? DEFAULT_PUSH_HOSTS)]),
          allowPrivateAddresses: v.SINO_PUSH_ALLOW_PRIVATE === "true" || v.SINO_PUSH_ALLOW_PRIVATE === "1",
          maxLength: MAX_ENDPOINT_LENGTH,
        }),
        logLevel: v.SINO_LOG_LEVEL,
        webDir: isAbsolute(v.SINO_WEB_DIR) ? v.SINO_WEB_DIR : resolve(v.SINO_WEB_DIR),
      };
    });
}

/** A decimal integer in [min, max]; `undefined` gives the default. */
function integer(min: number, max: number, fallback: number, message: { error: () => string }) {
  return z
    .string()
    .optional()
    .refine((v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= min && Number(v) <= max), message)
    .transform((v) => (v === undefined ? fallback : Number(v)));
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
