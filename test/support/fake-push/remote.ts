import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:https";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { FakePushStatsJson } from "./admin-routes.js";
import type { BehaviourRule } from "./behaviour.js";
import type { FakePushConfig } from "./fake-push-service.js";
import { loadTestTls } from "./test-tls.js";

/** Drives a fake push service over its `/_fake/` admin routes (same process or another). */
export function connectFakePushService(origin: string, ca: string = loadTestTls().ca) {
  function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise<T>((resolve, reject) => {
      const req = request(
        new URL(path, origin),
        { method, ca, agent: false, headers: payload ? { "content-type": "application/json", "content-length": payload.length } : {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            if ((res.statusCode ?? 0) >= 300) reject(new Error(`fake push admin ${method} ${path}: ${res.statusCode} ${text}`));
            else resolve(JSON.parse(text) as T);
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }
  return {
    origin,
    endpointFor: (id: string): string => `${origin}/push/${encodeURIComponent(id)}`,
    stats: (options: { byId?: boolean } = {}): Promise<FakePushStatsJson> => call("GET", `/_fake/stats${options.byId ? "?byId=1" : ""}`),
    setBehaviour: (rule: BehaviourRule): Promise<unknown> => call("POST", "/_fake/behaviour", rule),
    clearBehaviours: (): Promise<unknown> => call("DELETE", "/_fake/behaviour"),
    configure: (config: FakePushConfig): Promise<unknown> => call("POST", "/_fake/config", config),
    registerKeys: (id: string, keys: { privateKey: string; auth: string; vapidKey?: string }): Promise<unknown> =>
      call("PUT", `/_fake/keys/${encodeURIComponent(id)}`, keys),
    reset: (): Promise<unknown> => call("POST", "/_fake/reset"),
  };
}

export type RemoteFakePushService = ReturnType<typeof connectFakePushService>;

export interface SpawnOptions {
  readonly seed?: string;
  readonly decryptSample?: number;
  readonly logSize?: number;
  readonly closeConnectionAfter?: number;
  readonly vapidPublicKey?: string;
}

/** Starts `main.ts` in a child process (through tsx) and connects to it. */
export async function spawnFakePushService(options: SpawnOptions = {}): Promise<RemoteFakePushService & { process: ChildProcess; close(): Promise<void> }> {
  const main = fileURLToPath(new URL("./main.ts", import.meta.url));
  const args = ["--import", "tsx", main, "--port", "0"];
  if (options.seed !== undefined) args.push("--seed", options.seed);
  if (options.decryptSample !== undefined) args.push("--decrypt-sample", String(options.decryptSample));
  if (options.logSize !== undefined) args.push("--log-size", String(options.logSize));
  if (options.closeConnectionAfter !== undefined) args.push("--close-after", String(options.closeConnectionAfter));
  if (options.vapidPublicKey !== undefined) args.push("--vapid-key", options.vapidPublicKey);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      const ready = JSON.parse(line) as { ready?: boolean; origin?: string };
      if (ready.ready === true && typeof ready.origin === "string") resolve(ready.origin);
      else reject(new Error(`fake push service: unexpected first line ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`fake push service exited (${code}) before it was ready`)));
  });
  return {
    ...connectFakePushService(origin),
    process: child,
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
