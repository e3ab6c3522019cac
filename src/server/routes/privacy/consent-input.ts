import type { FastifyRequest } from "fastify";
import type { ConsentInput } from "../../../shared/api/consent.js";
import type { ConsentGiven } from "../../../store/consent-records.js";
import type { KnownSite } from "../../sites/site-registry.js";

/**
 * The consent a registration carries, as the store records it. The page's origin is the request's
 * `Origin` (set by the browser, not by the page's script; public-cors.ts already checked it is the
 * site's or Sino's own), else the site's.
 */
export function consentOf(request: FastifyRequest, consent: ConsentInput | undefined, site: KnownSite): ConsentGiven | undefined {
  if (consent === undefined) return undefined;
  const origin = request.headers.origin;
  return {
    source: consent.source,
    text: consent.text,
    catalogueVersion: consent.version,
    pageOrigin: typeof origin === "string" && origin !== "null" ? origin : site.origin,
  };
}
