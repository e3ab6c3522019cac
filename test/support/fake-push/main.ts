/**
 * The fake push service as its own process, so a benchmark does not share a core with it:
 *
 *   tsx test/support/fake-push/main.ts --port 0 [--seed S] [--decrypt-sample N] [--log-size N]
 *       [--close-after N] [--vapid-key K]
 *
 * Prints one JSON line `{"ready":true,"origin":"https://127.0.0.1:PORT","pid":...}` on stdout,
 * then is driven over its `/_fake/` admin routes (see admin-routes.ts). Stops on SIGTERM/SIGINT.
 */
import { parseArgs } from "node:util";
import { startFakePushService } from "./fake-push-service.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    host: { type: "string", default: "127.0.0.1" },
    seed: { type: "string" },
    "decrypt-sample": { type: "string" },
    "log-size": { type: "string" },
    "close-after": { type: "string" },
    "vapid-key": { type: "string" },
  },
});

const number = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

const service = await startFakePushService({
  port: Number(values.port),
  host: values.host,
  ...(values.seed === undefined ? {} : { keySeed: values.seed }),
  ...(values["decrypt-sample"] === undefined ? {} : { decryptSample: number(values["decrypt-sample"]) }),
  ...(values["log-size"] === undefined ? {} : { logSize: number(values["log-size"]) }),
  ...(values["close-after"] === undefined ? {} : { closeConnectionAfter: number(values["close-after"]) }),
  ...(values["vapid-key"] === undefined ? {} : { vapidPublicKey: values["vapid-key"] }),
});

const stop = (): void => {
  void service.close().then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

// Only now: writes to a pipe are synchronous on Linux, so the parent may signal us as soon as it
// reads this line — the handlers above must already be in place.
process.stdout.write(`${JSON.stringify({ ready: true, origin: service.origin, pid: process.pid })}\n`);
