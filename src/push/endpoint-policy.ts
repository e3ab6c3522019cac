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

export type EndpointCheck = { ok: true; url: URL } | { ok: false; code: EndpointRejection };

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

  const host = url.hostname;
  const listed = isHostAllowed(host, policy.allowedHosts);
  if (isIpLiteral(host)) {
    if (!isPublicAddress(stripBrackets(host)) && !policy.allowPrivateAddresses) {
      return { ok: false, code: "endpoint_private_address" };
    }
    // An IP literal is accepted only when the operator listed that very address.
    return listed ? { ok: true, url } : { ok: false, code: "endpoint_ip_literal" };
  }
  if (host === "localhost" || host.endsWith(".localhost")) {
    if (!policy.allowPrivateAddresses) return { ok: false, code: "endpoint_private_address" };
  }
  return listed ? { ok: true, url } : { ok: false, code: "endpoint_host_not_allowed" };
}

export function isHostAllowed(host: string, patterns: readonly string[]): boolean {
  const h = stripBrackets(host).toLowerCase();
  return patterns.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p.startsWith("*.")) return h.endsWith(p.slice(1)) && h.length > p.length - 1;
    return h === stripBrackets(p);
  });
}
