import { z } from "zod";
import { API_ROUTES } from "./routes.js";
import { multiLineText } from "./text.js";

/** `/api/v1/sites/:id/vapid-key`: GET (admin) the site's keys; PUT (admin) choose or rotate them. */
export function siteVapidKeyPath(id: string): string {
  return `${API_ROUTES.sites}/${encodeURIComponent(id)}/vapid-key`;
}

/** Where a key came from: Sino's own default key, one generated for the site, or one brought from another sender. */
export const vapidKeySourceSchema = z.enum(["default", "generated", "imported"]);
export type VapidKeySource = z.infer<typeof vapidKeySourceSchema>;

/** A VAPID key as the Painel sees it: the public key only (the private key is never shown again). */
export const vapidKeySchema = z.object({
  /** Uncompressed P-256 point, base64url: what browsers pass as `applicationServerKey`. */
  publicKey: z.string(),
  source: vapidKeySourceSchema,
  /** When it was generated or imported here (ISO 8601); null for Sino's default key. */
  createdAt: z.string().nullable(),
  /** Subscriptions of this site made with it (their pushes are signed with it). */
  subscriptions: z.number().int(),
});
export type VapidKeyPresentation = z.infer<typeof vapidKeySchema>;

/** GET /sites/:id/vapid-key → the key new subscriptions are made with, and the older keys still in use. */
export const siteKeysSchema = z.object({
  siteId: z.string(),
  current: vapidKeySchema,
  /** Keys the site used before, kept while subscriptions use them (deleted once none do). */
  previous: z.array(vapidKeySchema),
  /** Subscriptions the bell moved silently from another key to the site's ("migradas"). */
  migrated: z.number().int(),
});
export type SiteKeys = z.infer<typeof siteKeysSchema>;
export const siteKeysResponseSchema = z.object({ keys: siteKeysSchema });
export type SiteKeysResponse = z.infer<typeof siteKeysResponseSchema>;

/**
 * PUT /sites/:id/vapid-key (admin): `default` (Sino's key), `generate` (a new pair made here) or
 * `import` with `key`: the previous sender's pair as `web-push`'s JSON, a PEM EC private key
 * (SEC1 or PKCS#8) or the base64url private key. The public key is derived and checked; a bad
 * key → 400 with a `vapid_key_*` code and nothing stored.
 */
export const setSiteKeyRequestSchema = z.strictObject({
  mode: z.enum(["default", "generate", "import"]),
  key: multiLineText().max(4096).optional(),
});
export type SetSiteKeyRequest = z.infer<typeof setSiteKeyRequestSchema>;

/** The new state, and how many subscriptions stay on the key it replaced (they keep working with it). */
export const setSiteKeyResponseSchema = z.object({
  keys: siteKeysSchema,
  /** Subscriptions still made with the replaced key: signed with it until their browsers move. */
  onPreviousKey: z.number().int(),
  /** What the import read the text as (only for `import`). */
  format: z.enum(["web-push-json", "pem", "base64url"]).optional(),
});
export type SetSiteKeyResponse = z.infer<typeof setSiteKeyResponseSchema>;
