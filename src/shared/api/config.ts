import { z } from "zod";
import { text } from "./text.js";
import { publicChannelSchema } from "./channels.js";
import { organisationSchema } from "./organisation.js";

/** GET /api/v1/config: what any visitor's browser may know. The VAPID private key never leaves the server. */
export const publicConfigSchema = z.object({
  /** The site's VAPID public key (Sino's default unless the site has its own): an uncompressed P-256 point, base64url without padding. */
  vapidPublicKey: z.string(),
  /** Active (not archived) channels a subscriber may choose, by name. */
  channels: z.array(publicChannelSchema),
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION. */
  maxChannelsPerSubscription: z.number().int(),
  /** SINO_TIME_ZONE (IANA): the Painel shows dates and takes schedules in this zone. */
  timeZone: z.string(),
  /** The organisation's name, accent colour and logo (Painel → Organização), for the bell's panel. */
  organisation: organisationSchema,
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** GET /api/v1/config?site=KEY: the embedded bell names its site; an unknown key → 404 `site_not_found`. */
export const publicConfigQuerySchema = z.object({ site: text().max(64).optional() });
