import type { LookupFunction } from "node:net";
import { Agent } from "undici";
import { createGuardedConnector } from "../../push/guarded-connector.js";
import { transportErrorKind } from "../../push/transport-error.js";
import type { ResolveHost } from "../webhooks/url-policy.js";
import { checkFeedUrl, type FeedUrlPolicy } from "./feed-url-policy.js";

export interface FeedFetcherOptions extends FeedUrlPolicy {
  /** SINO_FEED_TIMEOUT_MS: deadline of one fetch, redirects included, from connect to the last byte. */
  readonly timeoutMs: number;
  /** SINO_FEED_MAX_BYTES: a longer answer is refused (and not read further). */
  readonly maxBytes: number;
  /** Extra CA certificates to trust (tests' local https feed). */
  readonly ca?: string | Buffer | Array<string | Buffer>;
  /** Name resolution for connections; tests inject one. */
  readonly lookup?: LookupFunction;
  /** Name resolution for the redirect check; tests inject one. */
  readonly resolveHost?: ResolveHost;
}

/** The validators of the last 200 answer, sent back as If-None-Match / If-Modified-Since. */
export interface FeedValidators {
  readonly etag: string | null;
  readonly lastModified: string | null;
}

export type FeedFetchResult =
  | { readonly kind: "not_modified" }
  | { readonly kind: "fetched"; readonly body: string; readonly validators: FeedValidators };

/** Why a poll failed; each code has a pt-BR text at `feeds:pollErrors.<code>`. */
export type FeedPollErrorCode =
  | "feed_timeout"
  | "feed_too_large"
  | "feed_blocked_address"
  | "feed_redirect_refused"
  | "feed_too_many_redirects"
  | "feed_http_error"
  | "feed_unreachable"
  | "feed_tls"
  | "feed_malformed"
  | "feed_not_a_feed"
  | "feed_channel_missing"
  /** The stored URL no longer meets the policy (e.g. http, stored while SINO_FEED_ALLOW_PRIVATE was on). */
  | "feed_url_refused";

export class FeedFetchError extends Error {
  constructor(
    readonly code: FeedPollErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "FeedFetchError";
  }
}

export interface FeedFetcher {
  fetch(url: string, validators: FeedValidators): Promise<FeedFetchResult>;
  close(): Promise<void>;
}

const MAX_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * HTTP for feeds, apart from push and webhooks: its own undici agent, every connection through
 * the push transport's guard (each resolved address and the connected peer checked). Redirects are
 * followed by hand, at most three, each target checked by the same URL policy before any
 * connection; a conditional GET (ETag / Last-Modified) lets an unchanged feed answer 304 with no
 * body. The whole fetch has one deadline, and the body is read only up to `maxBytes`.
 */
export function createFeedFetcher(options: FeedFetcherOptions): FeedFetcher {
  const policy: FeedUrlPolicy = {
    allowPrivateAddresses: options.allowPrivateAddresses,
    ...(options.isAllowedAddress === undefined ? {} : { isAllowedAddress: options.isAllowedAddress }),
  };
  const agent = new Agent({
    connect: createGuardedConnector({
      ...policy,
      connectTimeoutMs: options.timeoutMs,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
    }),
    connections: 4,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
  });

  async function fetchFeed(start: string, validators: FeedValidators): Promise<FeedFetchResult> {
    // The stored URL is checked again: the policy may have changed since it was stored.
    const first = await checkFeedUrl(start, policy, options.resolveHost);
    if (!first.ok) {
      throw first.code === "feed_url_private_address"
        ? new FeedFetchError("feed_blocked_address", "the feed's host is a non-public address")
        : new FeedFetchError("feed_url_refused", `the feed's URL is refused (${first.code})`);
    }
    const deadline = AbortSignal.timeout(options.timeoutMs);
    let url = first.url;
    try {
      for (let hop = 0; ; hop++) {
        const target = new URL(url);
        const response = await agent.request({
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: "GET",
          headers: {
            accept: "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5",
            "user-agent": "Sino-Feeds/1",
            ...(validators.etag === null ? {} : { "if-none-match": validators.etag }),
            ...(validators.lastModified === null ? {} : { "if-modified-since": validators.lastModified }),
          },
          signal: deadline,
        });
        const status = response.statusCode;
        if (REDIRECTS.has(status)) {
          await response.body.dump({ limit: 16 * 1024 }).catch(() => undefined);
          if (hop >= MAX_REDIRECTS) throw new FeedFetchError("feed_too_many_redirects", `more than ${MAX_REDIRECTS} redirects`);
          const location = header(response.headers.location);
          if (location === undefined) throw new FeedFetchError("feed_http_error", `${status} without a Location`, status);
          const next = await checkFeedUrl(new URL(location, url).href, policy, options.resolveHost);
          if (!next.ok) throw new FeedFetchError("feed_redirect_refused", `redirect refused (${next.code})`);
          url = next.url;
          continue;
        }
        if (status === 304) {
          await response.body.dump().catch(() => undefined);
          return { kind: "not_modified" };
        }
        if (status < 200 || status >= 300) {
          await response.body.dump({ limit: 16 * 1024 }).catch(() => undefined);
          throw new FeedFetchError("feed_http_error", `answered ${status}`, status);
        }
        const declared = Number(header(response.headers["content-length"]) ?? NaN);
        if (declared > options.maxBytes) {
          response.body.destroy();
          throw new FeedFetchError("feed_too_large", `${declared} bytes declared; at most ${options.maxBytes}`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of response.body) {
          size += (chunk as Buffer).length;
          if (size > options.maxBytes) {
            response.body.destroy();
            throw new FeedFetchError("feed_too_large", `over ${options.maxBytes} bytes`);
          }
          chunks.push(chunk as Buffer);
        }
        const bytes = Buffer.concat(chunks);
        return {
          kind: "fetched",
          body: decode(bytes, header(response.headers["content-type"])),
          validators: { etag: header(response.headers.etag) ?? null, lastModified: header(response.headers["last-modified"]) ?? null },
        };
      }
    } catch (error) {
      if (error instanceof FeedFetchError) throw error;
      if (deadline.aborted) throw new FeedFetchError("feed_timeout", `no complete answer in ${options.timeoutMs} ms`);
      const kind = transportErrorKind(error);
      if (kind === "blocked_address") throw new FeedFetchError("feed_blocked_address", "the feed's host resolves to a non-public address");
      if (kind === "timeout") throw new FeedFetchError("feed_timeout", `no complete answer in ${options.timeoutMs} ms`);
      if (kind === "tls") throw new FeedFetchError("feed_tls", error instanceof Error ? error.message : String(error));
      throw new FeedFetchError("feed_unreachable", `${kind}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  return { fetch: fetchFeed, close: () => agent.close() };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The document's text in its declared encoding (Content-Type's charset, else the XML declaration's,
 * else UTF-8): Brazilian sites still publish ISO-8859-1 feeds.
 */
function decode(bytes: Buffer, contentType: string | undefined): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  const fromDeclaration = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/i.exec(bytes.subarray(0, 200).toString("latin1"))?.[1];
  const label = fromHeader ?? fromDeclaration ?? "utf-8";
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}
