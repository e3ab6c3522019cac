import type { BehaviourRule } from "./behaviour.js";
import type { Exchange } from "./exchange.js";
import type { FakePushConfig, FakePushService } from "./fake-push-service.js";
import type { FakePushStats } from "./stats.js";

/** `stats()` as JSON: `acceptedById` becomes an object, and only when asked (it can be huge). */
export type FakePushStatsJson = Omit<FakePushStats, "acceptedById"> & { acceptedById?: Record<string, number> };

const ADMIN_BODY_LIMIT = 64 * 1024;

/**
 * Control over HTTP, under `/_fake/`, for a fake running in another process (the benchmark,
 * multi-process tests). Not counted in the stats.
 *
 *   GET    /_fake/stats[?byId=1]   stats as JSON
 *   POST   /_fake/behaviour        add a BehaviourRule (JSON body)
 *   DELETE /_fake/behaviour        remove every rule
 *   POST   /_fake/config           FakePushConfig (JSON body)
 *   PUT    /_fake/keys/<id>        { privateKey, auth, vapidKey? } in base64url
 *   POST   /_fake/reset            forget stats and rules
 */
export async function handleAdminRequest(exchange: Exchange, service: FakePushService): Promise<void> {
  const url = new URL(exchange.url, service.origin);
  const route = `${exchange.method} ${url.pathname}`;
  const json = (status: number, value: unknown): void =>
    exchange.respond(status, { "content-type": "application/json" }, JSON.stringify(value));
  try {
    const { body, length } = await exchange.readBody(ADMIN_BODY_LIMIT);
    if (length > ADMIN_BODY_LIMIT) return json(413, { error: "admin body too large" });
    const input = (): unknown => (body.length === 0 ? {} : JSON.parse(body.toString("utf8")));

    if (route === "GET /_fake/stats") return json(200, statsToJson(service.stats(), url.searchParams.get("byId") === "1"));
    if (route === "POST /_fake/behaviour") {
      service.setBehaviour(input() as BehaviourRule);
      return json(200, { behaviours: service.behaviours() });
    }
    if (route === "DELETE /_fake/behaviour") {
      service.clearBehaviours();
      return json(200, { behaviours: [] });
    }
    if (route === "POST /_fake/config") {
      service.configure(input() as FakePushConfig);
      return json(200, {});
    }
    if (route === "POST /_fake/reset") {
      service.reset();
      return json(200, {});
    }
    if (exchange.method === "PUT" && url.pathname.startsWith("/_fake/keys/")) {
      const id = decodeURIComponent(url.pathname.slice("/_fake/keys/".length));
      const keys = input() as { privateKey?: unknown; auth?: unknown; vapidKey?: unknown };
      if (typeof keys.privateKey !== "string" || typeof keys.auth !== "string") {
        return json(400, { error: "privateKey and auth (base64url) are required" });
      }
      service.registerKeys(id, {
        privateKey: Buffer.from(keys.privateKey, "base64url"),
        auth: Buffer.from(keys.auth, "base64url"),
        ...(typeof keys.vapidKey === "string" ? { vapidKey: keys.vapidKey } : {}),
      });
      return json(200, {});
    }
    return json(404, { error: `no admin route ${route}` });
  } catch (error) {
    return json(400, { error: error instanceof Error ? error.message : String(error) });
  }
}

export function statsToJson(stats: FakePushStats, byId: boolean): FakePushStatsJson {
  const { acceptedById, ...rest } = stats;
  return byId ? { ...rest, acceptedById: Object.fromEntries(acceptedById) } : rest;
}
