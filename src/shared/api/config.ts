import { z } from "zod";
import { publicChannelSchema } from "./channels.js";

/** GET /api/v1/config: what any visitor's browser may know. The VAPID private key never leaves the server. */
export const publicConfigSchema = z.object({
  /** The server's VAPID public key: an uncompressed P-256 point, base64url without padding. */
  vapidPublicKey: z.string(),
  /** Active (not archived) channels a subscriber may choose, by name. */
  channels: z.array(publicChannelSchema),
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION. */
  maxChannelsPerSubscription: z.number().int(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** GET /api/v1/config?site=KEY: the embedded bell names its site; an unknown key → 404 `site_not_found`. */
export const publicConfigQuerySchema = z.object({ site: z.string().max(64).optional() });
