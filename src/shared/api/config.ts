import { z } from "zod";

/** GET /api/v1/config: what any visitor's browser may know. The VAPID private key never leaves the server. */
export const publicConfigSchema = z.object({
  /** The server's VAPID public key: an uncompressed P-256 point, base64url without padding. */
  vapidPublicKey: z.string(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
