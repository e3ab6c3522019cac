import { z } from "zod";
import { text } from "./text.js";
import { deliveryDefaultsSchema, siteDeliverySettingsPatch, siteDeliverySettingsSchema } from "./engagement.js";

/**
 * Sites: the origins allowed to collect subscribers with the embeddable bell. Sino's own origin
 * (SINO_PUBLIC_URL) is always one, built in and never deleted. Each site has a public key the
 * snippet carries (`data-site="KEY"`); it is not a secret, only a name for the site.
 */
export const SITE_ORIGIN_MAX_LENGTH = 255;
/** Length of a site key: 12 URL-safe characters (72 random bits, more than enough for a name). */
export const SITE_KEY_LENGTH = 12;
export const SITE_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Why an origin typed by an admin is refused; each is an error code with a pt-BR message. */
export type SiteOriginProblem = "site_origin_invalid" | "site_origin_not_https";

/** Hosts a browser treats as a secure context over plain http (push needs one). */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Normalises an origin as browsers send it in `Origin`: lower-case scheme and host, no default
 * port, no path. `https://WWW.Exemplo.com.br:443/` becomes `https://www.exemplo.com.br`. Plain
 * http only for loopback (a browser gives push only to secure contexts). A path, query or fragment
 * is dropped (an admin pastes the address of the page where the bell goes, and the browser's
 * `Origin` never carries one); credentials are refused: that is not a site's address.
 */
/** An https page cannot load a script from a plain-http Sino (mixed content, blocked by browsers). */
export function snippetBlocked(siteOrigin: string, sinoUrl: string): boolean {
  return siteOrigin.startsWith("https:") && sinoUrl.startsWith("http:");
}

export function normaliseSiteOrigin(input: string): { ok: true; origin: string } | { ok: false; code: SiteOriginProblem } {
  const trimmed = input.trim();
  if (trimmed === "" || trimmed.length > SITE_ORIGIN_MAX_LENGTH || !/^https?:\/\//i.test(trimmed)) {
    return /^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^https?:/i.test(trimmed)
      ? { ok: false, code: "site_origin_not_https" }
      : { ok: false, code: "site_origin_invalid" };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, code: "site_origin_invalid" };
  }
  if (url.username !== "" || url.password !== "" || url.hostname === "") return { ok: false, code: "site_origin_invalid" };
  if (url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) return { ok: false, code: "site_origin_not_https" };
  return { ok: true, origin: url.origin };
}

export const siteSchema = z.object({
  id: z.string(),
  /** Normalised origin, e.g. `https://www.exemplo.com.br`. */
  origin: z.string(),
  /** The public key the snippet carries (`data-site`). */
  key: z.string(),
  /** Sino's own origin (SINO_PUBLIC_URL): always there, cannot be deleted. */
  builtIn: z.boolean(),
  /** Subscriptions collected on this site. */
  subscribers: z.number().int(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  /**
   * Why the snippet cannot work on this site (pt-BR), absent when it can: an https site whose
   * snippet would load Sino over plain http (SINO_PUBLIC_URL), which browsers block as mixed content.
   */
  snippetWarning: z.string().optional(),
  /** The site's pages may set visitor tags (`Sino.tag`); off: 403 `visitor_tags_disabled`. */
  visitorTags: z.boolean(),
  /** Frequency cap, send window and time zone (null: the server's default, in `GET /sites`'s `deliveryDefaults`). */
  delivery: siteDeliverySettingsSchema,
  identity: z.object({
    /** Identifying a person needs `HMAC-SHA256(identity secret, userId)` (the default). */
    verification: z.boolean(),
    /** An identity secret was generated (it is shown only once, when generated). */
    hasSecret: z.boolean(),
    /** When the current secret was generated (ISO 8601), or null. */
    rotatedAt: z.string().nullable(),
    /** Until when the secret it replaced is still accepted (ISO 8601); null when none is. */
    previousValidUntil: z.string().nullable(),
    /** With verification off: why that is risky (pt-BR). */
    warning: z.string().optional(),
  }),
});
export type Site = z.infer<typeof siteSchema>;
export type SiteIdentity = Site["identity"];

/** GET /sites (signed in). */
export const sitesResponseSchema = z.object({
  sites: z.array(siteSchema),
  /** SINO_PUBLIC_URL without a trailing slash: where the snippet loads `/embed/sino.js` from. */
  sinoUrl: z.string(),
  /** What a site's null delivery settings mean: the server's frequency cap, send window and time zone. */
  deliveryDefaults: deliveryDefaultsSchema,
});
export type SitesResponse = z.infer<typeof sitesResponseSchema>;

/** POST /sites (admin) → 201 `{ site }`; 409 `site_origin_taken`. */
export const createSiteRequestSchema = z.strictObject({
  origin: text({ error: "site_origin_invalid" }).max(SITE_ORIGIN_MAX_LENGTH, { error: "site_origin_invalid" }),
});
export type CreateSiteRequest = z.input<typeof createSiteRequestSchema>;
export const siteResponseSchema = z.object({ site: siteSchema });
export type SiteResponse = z.infer<typeof siteResponseSchema>;

/**
 * PATCH /sites/:id (admin) → 200 `{ site }`: turns signature verification of person ids on or off,
 * and whether the site's pages may set visitor tags. At least one of them.
 */
export const updateSiteRequestSchema = z
  .strictObject({
    identityVerification: z.boolean({ error: "validation_failed" }).optional(),
    visitorTags: z.boolean({ error: "validation_failed" }).optional(),
    // Delivery settings (engagement): null returns each to the server's default.
    ...siteDeliverySettingsPatch,
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), { error: "validation_failed" });
export type UpdateSiteRequest = z.infer<typeof updateSiteRequestSchema>;

/**
 * POST /sites/:id/identity-secret (admin) → 200 `{ secret, site }`: generates the site's identity
 * secret, or replaces it (the previous one stays valid for SINO_IDENTITY_SECRET_GRACE_HOURS). The
 * secret is in this answer only: Sino never shows it again.
 */
export const identitySecretResponseSchema = z.object({ secret: z.string(), site: siteSchema });
export type IdentitySecretResponse = z.infer<typeof identitySecretResponseSchema>;

/** DELETE /sites/:id (admin) → `{ removedSubscribers }`: its subscriptions go with it. */
export const deleteSiteResponseSchema = z.object({ removedSubscribers: z.number().int() });
export type DeleteSiteResponse = z.infer<typeof deleteSiteResponseSchema>;

/** A site id as the audience and filters take it (`audience.sites`, `?site=`). */
export const siteIdSchema = z.string({ error: "audience_site_not_found" }).regex(/^\d{1,15}$/, { error: "audience_site_not_found" });

/** `?site=<id>` on the overview, the subscribers list and the stats: one site's subscribers. */
export const siteFilterQuerySchema = z.object({ site: z.string().regex(/^\d{1,15}$/, { error: "site_not_found" }).optional() });
