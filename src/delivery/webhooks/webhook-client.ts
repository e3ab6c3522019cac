import type { LookupFunction } from "node:net";
import { Agent } from "undici";
import { createGuardedConnector } from "../../push/guarded-connector.js";
import { transportErrorKind } from "../../push/transport-error.js";
import type { WebhookSignatureHeaders } from "./sign.js";

export interface WebhookClientOptions {
  /** Tests and local development only: connect to loopback/private addresses. */
  readonly allowPrivateAddresses: boolean;
  /** Deadline of one delivery, from connect to the end of the answer. */
  readonly timeoutMs: number;
  /** Connections kept per receiver origin (also its requests in flight). */
  readonly connectionsPerOrigin: number;
  /** Extra CA certificates to trust (tests' local https receiver). */
  readonly ca?: string | Buffer | Array<string | Buffer>;
  /** Name resolution; tests inject one. */
  readonly lookup?: LookupFunction;
}

export type WebhookPostResult =
  | { readonly kind: "answered"; readonly status: number; readonly retryAfter: string | undefined }
  | { readonly kind: "unreachable"; readonly error: string; readonly blocked: boolean };

export interface WebhookClient {
  post(url: string, body: string, signature: WebhookSignatureHeaders, signal?: AbortSignal): Promise<WebhookPostResult>;
  close(): Promise<void>;
}

/**
 * HTTP for webhook deliveries, apart from the push transport: its own undici agent (keep-alive
 * connections per receiver), so a slow receiver holds only its own sockets and never a push
 * service's. Every connection goes through the push transport's guard, which checks each address
 * the host name resolves to and the peer actually connected to. Redirects are not followed
 * (undici follows none unless told): a 3xx is an answer like any other non-2xx.
 */
export function createWebhookClient(options: WebhookClientOptions): WebhookClient {
  const connector = createGuardedConnector({
    allowPrivateAddresses: options.allowPrivateAddresses,
    connectTimeoutMs: options.timeoutMs,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
    ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
  });
  const agent = new Agent({
    connect: connector,
    connections: options.connectionsPerOrigin,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 30_000,
  });

  return {
    async post(url, body, signature, signal) {
      const deadline = AbortSignal.timeout(options.timeoutMs);
      try {
        const response = await agent.request({
          origin: new URL(url).origin,
          path: pathOf(url),
          method: "POST",
          headers: { "content-type": "application/json", "user-agent": "Sino-Webhooks/1", ...signature },
          body,
          signal: signal === undefined ? deadline : AbortSignal.any([deadline, signal]),
        });
        // The body is not used: read and dropped so the connection can be reused.
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        const retryAfter = response.headers["retry-after"];
        return { kind: "answered", status: response.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter };
      } catch (error) {
        const kind = deadline.aborted ? "timeout" : transportErrorKind(error);
        return { kind: "unreachable", error: kind, blocked: kind === "blocked_address" };
      }
    },
    close: () => agent.close(),
  };
}

function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}
