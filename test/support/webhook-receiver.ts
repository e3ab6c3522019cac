import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { loadTestTls } from "./fake-push/test-tls.js";

/** One request the receiver got, and whether its signature verified with the spec's own library. */
export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  /** The verified payload, or undefined when the signature did not verify. */
  readonly verified: unknown;
}

/** How the receiver answers one request (the n-th, from 1). */
export interface ReceiverAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Answer only after this long (a slow receiver; a timeout test). */
  readonly delayMs?: number;
}

export interface WebhookReceiver {
  /** `https://127.0.0.1:<port>` */
  readonly origin: string;
  readonly received: ReceivedWebhook[];
  /** PEM of the CA the receiver's certificate chains to. */
  readonly ca: string;
  /** The secret signatures are verified with (set it after creating the webhook). */
  secret: string | undefined;
  answer: (request: ReceivedWebhook, n: number) => ReceiverAnswer;
  /** Most requests the receiver was answering at one time. */
  readonly maxConcurrent: number;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A local https webhook receiver on the test certificate (test/fixtures/tls) that verifies each
 * delivery with `standardwebhooks`, the Standard Webhooks reference library: an independent check
 * of Sino's signing.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const tls = loadTestTls();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let open = 0;
  const receiver: WebhookReceiver = {
    origin: "",
    received: [],
    ca: tls.ca,
    secret: undefined,
    maxConcurrent: 0,
    answer: () => ({ status: 204 }),
    async waitFor(count, timeoutMs = 10_000) {
      if (receiver.received.length >= count) return receiver.received;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`webhook receiver: ${receiver.received.length}/${count} requests after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
      return receiver.received;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    open++;
    (receiver as { maxConcurrent: number }).maxConcurrent = Math.max(receiver.maxConcurrent, open);
    res.on("close", () => open--);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified: unknown;
      try {
        verified = receiver.secret === undefined ? undefined : new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>);
      } catch {
        verified = undefined;
      }
      const request: ReceivedWebhook = { path: req.url ?? "/", headers: req.headers, body, verified };
      receiver.received.push(request);
      const answer = receiver.answer(request, receiver.received.length);
      for (const w of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end();
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  (receiver as { origin: string }).origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
