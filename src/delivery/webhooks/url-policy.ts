import { lookup as dnsLookup } from "node:dns/promises";
import { isIpLiteral, isPublicAddress, stripBrackets } from "../../push/address-policy.js";

/** Which webhook URLs an admin may register. */
export interface WebhookUrlPolicy {
  /**
   * Only for tests and local development (SINO_WEBHOOK_ALLOW_PRIVATE): plain http and
   * loopback/private addresses, as SINO_PUSH_ALLOW_PRIVATE does for push endpoints.
   */
  readonly allowPrivateAddresses: boolean;
}

export type WebhookUrlRejection = "webhook_url_invalid" | "webhook_url_not_https" | "webhook_url_private_address";
export type WebhookUrlCheck = { ok: true; url: string } | { ok: false; code: WebhookUrlRejection };

/** Resolves a host name to every address it has (tests inject one). */
export type ResolveHost = (host: string) => Promise<readonly string[]>;

export const resolveWithDns: ResolveHost = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The rules a webhook URL must meet when it is stored: https, no credentials, no fragment, and not
 * pointing at Sino's own network — an admin's typo or a stolen admin token must not turn the
 * server into a proxy for scanning it. The host name is resolved here too, so an obvious private
 * name is refused with a clear error; the addresses actually connected to are checked again at
 * every delivery (the guarded connector), since DNS can change its answer after this check.
 */
export async function checkWebhookUrl(input: string, policy: WebhookUrlPolicy, resolve: ResolveHost = resolveWithDns): Promise<WebhookUrlCheck> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, code: "webhook_url_invalid" };
  }
  if (url.protocol !== "https:" && !(policy.allowPrivateAddresses && url.protocol === "http:")) {
    return { ok: false, code: url.protocol === "http:" ? "webhook_url_not_https" : "webhook_url_invalid" };
  }
  if (url.username !== "" || url.password !== "" || url.hash !== "" || url.hostname === "") return { ok: false, code: "webhook_url_invalid" };
  const accepted = { ok: true, url: url.href } as const;
  if (policy.allowPrivateAddresses) return accepted;

  const host = stripBrackets(url.hostname).toLowerCase();
  if (isIpLiteral(host)) return isPublicAddress(host) ? accepted : { ok: false, code: "webhook_url_private_address" };
  if (host === "localhost" || host.endsWith(".localhost") || !host.includes(".")) return { ok: false, code: "webhook_url_private_address" };
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    // Not resolvable now (a receiver being set up, a DNS hiccup): accepted, and checked at delivery.
    return accepted;
  }
  return addresses.every(isPublicAddress) ? accepted : { ok: false, code: "webhook_url_private_address" };
}

/** The URL as logs may show it: scheme, host and path, never the query (receivers put tokens there). */
export function redactWebhookUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "(invalid url)";
  }
}
