import { isIpLiteral, isPublicAddress, stripBrackets } from "../../push/address-policy.js";
import { resolveWithDns, type ResolveHost } from "../webhooks/url-policy.js";

/** Which feed URLs Sino fetches: the webhooks' rules (src/delivery/webhooks/url-policy.ts). */
export interface FeedUrlPolicy {
  /** SINO_FEED_ALLOW_PRIVATE: tests and local development only (plain http, private addresses). */
  readonly allowPrivateAddresses: boolean;
  /** Which addresses count as public; tests of the guard itself widen it to their 127.0.0.1 server. */
  readonly isAllowedAddress?: (ip: string) => boolean;
}

export type FeedUrlRejection = "feed_url_invalid" | "feed_url_not_https" | "feed_url_private_address";
export type FeedUrlCheck = { ok: true; url: string } | { ok: false; code: FeedUrlRejection };

/**
 * A feed URL (as an admin gives it, and every redirect's target): https, no credentials, and not
 * pointing at Sino's own network. The host name is resolved here too, so an obvious private name
 * is refused with a clear error; the addresses actually connected to are checked again at every
 * connection (the guarded connector), since DNS can change its answer after this check.
 */
export async function checkFeedUrl(input: string, policy: FeedUrlPolicy, resolve: ResolveHost = resolveWithDns): Promise<FeedUrlCheck> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, code: "feed_url_invalid" };
  }
  if (url.protocol !== "https:" && !(policy.allowPrivateAddresses && url.protocol === "http:")) {
    return { ok: false, code: url.protocol === "http:" ? "feed_url_not_https" : "feed_url_invalid" };
  }
  if (url.username !== "" || url.password !== "" || url.hostname === "") return { ok: false, code: "feed_url_invalid" };
  url.hash = "";
  const accepted = { ok: true, url: url.href } as const;
  if (policy.allowPrivateAddresses) return accepted;

  const allowed = policy.isAllowedAddress ?? isPublicAddress;
  const host = stripBrackets(url.hostname).toLowerCase();
  if (isIpLiteral(host)) return allowed(host) ? accepted : { ok: false, code: "feed_url_private_address" };
  if (host === "localhost" || host.endsWith(".localhost") || !host.includes(".")) return { ok: false, code: "feed_url_private_address" };
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    // Not resolvable now (a DNS hiccup): accepted here, and checked again at each connection.
    return accepted;
  }
  return addresses.every(allowed) ? accepted : { ok: false, code: "feed_url_private_address" };
}
