import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_PUSH_HOSTS } from "../push/endpoint-policy.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { CONFIG_OPTIONS, ConfigError, isVapidSubject, loadConfig, parseListenAddress, type Env } from "./config.js";

function configError(env: Env): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("loadConfig accepted the environment");
}

describe("loadConfig", () => {
  it("starts from documented defaults with an empty environment", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      publicUrl: "http://localhost:8080",
      dataDir: "./data",
      databaseUrl: "sqlite:data/sino.db",
      databasePoolSize: 10,
      vapidKeys: undefined,
      vapidSubject: "mailto:sino@example.com",
      logLevel: "info",
    });
    expect(config.endpointPolicy.allowedHosts).toEqual(DEFAULT_PUSH_HOSTS);
    expect(config.endpointPolicy.allowPrivateAddresses).toBe(false);
    expect(config.webDir).toMatch(/[\\/]dist[\\/]web$/);
  });

  it("gives the same configuration when each documented default is set explicitly", () => {
    const literal = CONFIG_OPTIONS.filter((o) => o.default !== "" && !o.default.includes("<") && !o.default.includes(" "));
    const env = Object.fromEntries(literal.map((o) => [o.env, o.default]));
    expect(loadConfig(env)).toEqual(loadConfig({}));
  });

  it("documents exactly the options it reads", () => {
    const read = new Set<string>();
    const env = new Proxy<Env>({}, {
      get(target, key) {
        if (typeof key === "string") read.add(key);
        return Reflect.get(target, key);
      },
    });
    loadConfig(env);
    expect([...read].filter((k) => /^[A-Z_]+$/.test(k)).sort()).toEqual(CONFIG_OPTIONS.map((o) => o.env).sort());
    for (const o of CONFIG_OPTIONS) expect(o.doc.length).toBeGreaterThan(10);
  });

  it("documents exactly its options in the README's configuration table, with the table's defaults", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const rows = new Map([...readme.matchAll(/^\| `([A-Z_]+)` \| ([^|]*) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]));
    expect([...rows.keys()].sort()).toEqual(CONFIG_OPTIONS.map((o) => o.env).sort());
    // The README words some defaults in Portuguese (a list, a rule); a plain value is shown as is.
    const plain = CONFIG_OPTIONS.filter((o) => !o.default.includes(" ") && !o.default.includes(","));
    expect(plain.map((o) => [o.env, rows.get(o.env)])).toEqual(plain.map((o) => [o.env, o.default === "" ? "—" : `\`${o.default}\``]));
  });

  it("returns a frozen object", () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.endpointPolicy)).toBe(true);
  });

  it("derives the SQLite file from SINO_DATA_DIR and honours DATABASE_URL", () => {
    expect(loadConfig({ SINO_DATA_DIR: "/var/lib/sino" }).databaseUrl).toBe("sqlite:/var/lib/sino/sino.db");
    expect(loadConfig({ DATABASE_URL: "postgres://sino@db/sino" }).databaseUrl).toBe("postgres://sino@db/sino");
  });

  it("extends the push allow-list and allows private addresses only when told", () => {
    const config = loadConfig({ SINO_PUSH_ALLOWED_HOSTS: " 127.0.0.1, Push.Example.net ,*.example.org", SINO_PUSH_ALLOW_PRIVATE: "true" });
    expect(config.endpointPolicy.allowedHosts).toEqual(["127.0.0.1", "push.example.net", "*.example.org"]);
    expect(config.endpointPolicy.allowPrivateAddresses).toBe(true);
  });

  it("uses an https public URL as the VAPID subject by default", () => {
    expect(loadConfig({ SINO_PUBLIC_URL: "https://avisos.example.com.br/" }).vapidSubject).toBe("https://avisos.example.com.br");
  });

  it("takes a matching VAPID key pair from the environment", () => {
    const keys = generateVapidKeys();
    const config = loadConfig({ SINO_VAPID_PUBLIC_KEY: keys.publicKey, SINO_VAPID_PRIVATE_KEY: keys.privateKey });
    expect(config.vapidKeys).toEqual(keys);
  });

  it.each<[string, Env, string]>([
    ["a port that is not a number", { SINO_PORT: "http" }, "SINO_PORT precisa ser um número de porta entre 0 e 65535."],
    ["a port out of range", { SINO_PORT: "70000" }, "SINO_PORT precisa ser um número de porta entre 0 e 65535."],
    ["a public URL without scheme", { SINO_PUBLIC_URL: "sino.example.com" }, "SINO_PUBLIC_URL precisa ser uma URL http:// ou https:// válida."],
    ["an unknown database scheme", { DATABASE_URL: "mysql://db/sino" }, "DATABASE_URL precisa ser postgres://…, sqlite:<arquivo> ou o caminho de um arquivo."],
    ["a zero pool size", { SINO_DATABASE_POOL_SIZE: "0" }, "SINO_DATABASE_POOL_SIZE precisa ser um número inteiro positivo."],
    ["a boolean spelled yes", { SINO_PUSH_ALLOW_PRIVATE: "yes" }, "SINO_PUSH_ALLOW_PRIVATE precisa ser true ou false."],
    ["an unknown log level", { SINO_LOG_LEVEL: "loud" }, "SINO_LOG_LEVEL precisa ser um destes valores: fatal, error, warn, info, debug, trace, silent."],
    ["an empty allow-list", { SINO_PUSH_ALLOWED_HOSTS: " , " }, "SINO_PUSH_ALLOWED_HOSTS precisa ser uma lista de hosts separados por vírgula (ex.: fcm.googleapis.com,*.notify.windows.com)."],
    ["a localhost VAPID subject", { SINO_VAPID_SUBJECT: "mailto:admin@localhost" }, "SINO_VAPID_SUBJECT precisa ser mailto: com um endereço de domínio real (não localhost) ou uma URL https://."],
    ["only one VAPID key", { SINO_VAPID_PUBLIC_KEY: generateVapidKeys().publicKey }, "SINO_VAPID_PUBLIC_KEY e SINO_VAPID_PRIVATE_KEY precisam ser definidas juntas."],
    [
      "VAPID keys from two different pairs",
      { SINO_VAPID_PUBLIC_KEY: generateVapidKeys().publicKey, SINO_VAPID_PRIVATE_KEY: generateVapidKeys().privateKey },
      "As chaves VAPID configuradas são inválidas: a pública precisa ser um ponto P-256 de 65 bytes e corresponder à privada (ambas em base64url).",
    ],
  ])("refuses %s with a pt-BR message", (_name, env, message) => {
    const error = configError(env);
    expect(error.issues).toEqual([message]);
    expect(error.message).toBe(`Configuração inválida:\n- ${message}`);
  });

  it("lists every problem at once", () => {
    expect(configError({ SINO_PORT: "-1", SINO_LOG_LEVEL: "x" }).issues).toHaveLength(2);
  });
});

describe("the metrics options", () => {
  it("leaves /metrics off by default and reads a token and a listen address", () => {
    expect(loadConfig({}).metrics).toEqual({ token: undefined, listen: undefined });
    expect(loadConfig({ SINO_METRICS_TOKEN: "0123456789abcdef", SINO_METRICS_LISTEN: "0.0.0.0:9464" }).metrics).toEqual({
      token: "0123456789abcdef",
      listen: { host: "0.0.0.0", port: 9464 },
    });
  });

  it.each([
    ["127.0.0.1:9464", { host: "127.0.0.1", port: 9464 }],
    ["[::1]:9464", { host: "::1", port: 9464 }],
    ["metrics.internal:0", { host: "metrics.internal", port: 0 }],
    ["9464", undefined],
    [":9464", undefined],
    ["::1:9464", undefined],
    ["127.0.0.1:65536", undefined],
    ["127.0.0.1:http", undefined],
  ])("reads the listen address %s", (value, expected) => {
    expect(parseListenAddress(value)).toEqual(expected);
  });

  it.each<[string, Env, string]>([
    ["a short token", { SINO_METRICS_TOKEN: "curto" }, "SINO_METRICS_TOKEN precisa ter pelo menos 16 caracteres, sem espaços."],
    ["a token with a space", { SINO_METRICS_TOKEN: "0123456789 abcdefgh" }, "SINO_METRICS_TOKEN precisa ter pelo menos 16 caracteres, sem espaços."],
    ["a listen address without a port", { SINO_METRICS_LISTEN: "127.0.0.1" }, "SINO_METRICS_LISTEN precisa ser host:porta, por exemplo 127.0.0.1:9464 ou [::1]:9464."],
  ])("refuses %s with a pt-BR message", (_name, env, message) => {
    expect(configError(env).issues).toEqual([message]);
  });
});

describe("isVapidSubject", () => {
  it.each([
    ["mailto:ops@example.com", true],
    ["mailto:alertas@empresa.com.br", true],
    ["https://sino.example.com", true],
    ["https://sino.example.com/contato", true],
    ["mailto:admin@localhost", false],
    ["mailto:admin@app.localhost", false],
    ["mailto:admin@intranet", false],
    ["mailto:nobody", false],
    ["http://sino.example.com", false],
    ["https://localhost", false],
    ["sino@example.com", false],
  ])("%s → %s", (subject, expected) => {
    expect(isVapidSubject(subject)).toBe(expected);
  });
});
