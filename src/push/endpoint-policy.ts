import { isIpLiteral, isPublicAddress, stripBrackets } from "./address-policy.js";

/**
 * Which push-service endpoints the server agrees to send to. A subscription endpoint comes from
 * the browser, so from whoever calls the API: it is checked here before it is stored, and the
 * address actually connected to is checked again at send time (see the transport).
 */
export interface EndpointPolicy {
  /** Host names, exact (`fcm.googleapis.com`) or `*.` + a parent domain (`*.notify.windows.com`). */
  readonly allowedHosts: readonly string[];
  /** Only for tests: lets endpoints on loopback/private addresses through (e.g. a fake push service). */
  readonly allowPrivateAddresses: boolean;
  readonly maxLength: number;
}

/** The push services of Chrome/Edge (FCM), Firefox (Mozilla autopush), Safari (Apple) and Windows (WNS). */
export const DEFAULT_PUSH_HOSTS: readonly string[] = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.push.services.mozilla.com",
  "web.push.apple.com",
  "*.push.apple.com",
  "*.notify.windows.com",
];

export const MAX_ENDPOINT_LENGTH = 1024;

export const DEFAULT_ENDPOINT_POLICY: EndpointPolicy = {
  allowedHosts: DEFAULT_PUSH_HOSTS,
  allowPrivateAddresses: false,
  maxLength: MAX_ENDPOINT_LENGTH,
};

export type EndpointRejection =
  | "endpoint_invalid"
  | "endpoint_too_long"
  | "endpoint_not_https"
  | "endpoint_has_credentials"
  | "endpoint_ip_literal"
  | "endpoint_private_address"
  | "endpoint_host_not_allowed";

/** `endpoint` is the URL as stored and compared: the one spelling of this push endpoint. */
export type EndpointCheck = { ok: true; url: URL; endpoint: string } | { ok: false; code: EndpointRejection };

/**
 * The one spelling of an endpoint URL (WHATWG serialisation: lower-case host, no default port):
 * `https://FCM.googleapis.com:443/x` and `https://fcm.googleapis.com/x` are the same push
 * subscription and must be stored and looked up as one. Text that is not a URL is returned as is
 * (it matches nothing stored).
 */
export function normalizeEndpoint(endpoint: string): string {
  try {
    return new URL(endpoint).href;
  } catch {
    return endpoint;
  }
}

export function checkEndpoint(endpoint: string, policy: EndpointPolicy): EndpointCheck {
  if (endpoint.length > policy.maxLength) return { ok: false, code: "endpoint_too_long" };
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { ok: false, code: "endpoint_invalid" };
  }
  if (url.protocol !== "https:") return { ok: false, code: "endpoint_not_https" };
  if (url.username !== "" || url.password !== "") return { ok: false, code: "endpoint_has_credentials" };
  if (url.hash !== "") return { ok: false, code: "endpoint_invalid" };
  const accepted = { ok: true, url, endpoint: url.href } as const;

  const host = url.hostname;
  const listed = isHostAllowed(host, url.port, policy.allowedHosts);
  const local = host === "localhost" || host.endsWith(".localhost");
  if (isIpLiteral(host)) {
    const isPrivate = !isPublicAddress(stripBrackets(host));
    if (isPrivate && !policy.allowPrivateAddresses) return { ok: false, code: "endpoint_private_address" };
    // An IP literal is accepted only when the operator listed that very address. A test's fake
    // push service on a private address listens on a port of its own choosing.
    if (isPrivate && isHostAllowed(host, "", policy.allowedHosts)) return accepted;
    return listed ? accepted : { ok: false, code: "endpoint_ip_literal" };
  }
  if (local) {
    if (!policy.allowPrivateAddresses) return { ok: false, code: "endpoint_private_address" };
    if (isHostAllowed(host, "", policy.allowedHosts)) return accepted;
  }
  return listed ? accepted : { ok: false, code: "endpoint_host_not_allowed" };
}

/**
 * Whether `host` on `port` ("" for the default, 443) is on the allow-list. An entry without a port
 * allows only 443: a push service answers there, and any other port of an allowed host name is
 * another service the operator did not choose. `host:port` (`[v6]:port`) allows that one port.
 */
export function isHostAllowed(host: string, port: string, patterns: readonly string[]): boolean {
  const h = stripBrackets(host).toLowerCase();
  return patterns.some((pattern) => {
    const entry = splitHostPattern(pattern.toLowerCase());
    if (entry.port !== port) return false;
    if (entry.host.startsWith("*.")) return h.endsWith(entry.host.slice(1)) && h.length > entry.host.length - 1;
    return h === stripBrackets(entry.host);
  });
}

/** `host`, `host:port`, `[v6]` or `[v6]:port`; a bare IPv6 address has no port. */
function splitHostPattern(pattern: string): { host: string; port: string } {
  const match = /^(\[[^\]]*\]|[^:]+):(\d{1,5})$/.exec(pattern);
  if (match === null) return { host: pattern, port: "" };
  const port = match[2] === "443" ? "" : match[2]!;
  return { host: match[1]!, port };
}
