import { resolvePushOptions, type PushOptions, type ResolvedPushOptions } from "./push-options.js";
import { PushError } from "./push-error.js";
import type { PreparedSubscriberKeys, SubscriberKeys } from "./subscriber-keys.js";
import type { VapidSigner } from "./vapid.js";

/** Where and to whom a message goes: a browser push subscription. */
export interface PushTarget {
  readonly endpoint: string;
  readonly keys: SubscriberKeys | PreparedSubscriberKeys;
}

/** A fully built push request, not yet sent (compare web-push's `generateRequestDetails`). */
export interface PushRequest {
  /** `https://host[:port]`: the connection pool key and the VAPID audience. */
  readonly origin: string;
  /** Path and query of the endpoint. */
  readonly path: string;
  readonly method: "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

const EMPTY = Buffer.alloc(0);

/**
 * Builds the RFC 8030 §5 request for one message whose body is already encrypted (RFC 8291, by
 * the encryption worker pool or the main thread): signs VAPID for the endpoint's origin (cached by
 * the signer) and sets TTL (always: RFC 8030 §5.2 makes it mandatory), Urgency, Topic and the
 * content headers. Throws a coded `PushError` for bad options — before any network work.
 */
export function buildEncryptedPushRequest(
  endpoint: string,
  encryptedBody: Buffer,
  options: PushOptions,
  vapid: VapidSigner,
  /** False for a push without data (an empty body without the content headers). */
  hasPayload = true,
): PushRequest {
  return assembleRequest(endpoint, hasPayload ? encryptedBody : null, resolvePushOptions(options), vapid);
}

/**
 * The same with options already checked by `resolvePushOptions`: a fan-out resolves them once
 * per send, not once per push.
 */
export function buildResolvedPushRequest(
  endpoint: string,
  encryptedBody: Buffer | null,
  options: ResolvedPushOptions,
  vapid: VapidSigner,
): PushRequest {
  return assembleRequest(endpoint, encryptedBody, options, vapid);
}

function assembleRequest(
  endpoint: string,
  body: Buffer | null,
  options: ResolvedPushOptions,
  vapid: VapidSigner,
): PushRequest {
  const { origin, path } = splitEndpoint(endpoint);
  const headers: Record<string, string> = {
    ttl: String(options.ttl),
    authorization: vapid.authorizationFor(origin),
    "content-length": String(body?.length ?? 0),
  };
  if (body !== null) {
    headers["content-encoding"] = "aes128gcm";
    headers["content-type"] = "application/octet-stream";
  }
  if (options.urgency !== undefined) headers["urgency"] = options.urgency;
  if (options.topic !== undefined) headers["topic"] = options.topic;
  return { origin, path, method: "POST", headers, body: body ?? EMPTY };
}

// A fan-out sends to thousands of endpoints of a handful of push services. The WHATWG parser
// runs once per distinct `https://authority` text (cached), and a path made only of characters a
// URL keeps as they are is taken as written, so the common case costs one regex test, not a parse.
const origins = new Map<string, string>();
const MAX_ORIGINS = 1024;
const PLAIN_AUTHORITY = /^https:\/\/[A-Za-z0-9.-]+(?::[0-9]+)?$/;
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@/%?]*$/;
// Dot segments ("/./", "/../", also percent-encoded) are resolved by the parser; an empty query
// ("?" at the end) is dropped by it.
const PARSED_DIFFERENTLY = /\/\.\.?(?:[/?]|$)|%2e|\?$/i;

/** `https://host[:port]` and path + query of an endpoint, exactly as `new URL` would give them. */
export function splitEndpoint(endpoint: string): { origin: string; path: string } {
  // Only an authority written as plain host[:port] (no credentials, no '?', '#' or '\\' before the
  // first '/') maps to the origin by itself.
  const slash = endpoint.startsWith("https://") ? endpoint.indexOf("/", 8) : -1;
  const authority = slash > 8 ? endpoint.slice(0, slash) : undefined;
  if (authority !== undefined) {
    const origin = origins.get(authority);
    const path = endpoint.slice(slash);
    if (origin !== undefined && PLAIN_PATH.test(path) && !PARSED_DIFFERENTLY.test(path)) return { origin, path };
  }
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new PushError("endpoint_invalid", "push endpoint is not a URL");
  }
  if (url.protocol !== "https:") throw new PushError("endpoint_invalid", "push endpoint must be https");
  if (authority !== undefined && PLAIN_AUTHORITY.test(authority)) {
    if (origins.size >= MAX_ORIGINS) origins.clear();
    origins.set(authority, url.origin);
  }
  return { origin: url.origin, path: url.pathname + url.search };
}
