/** GET /api/v1/config: what any visitor's browser may know. The VAPID private key never leaves the server. */
export interface PublicConfig {
  /** The server's VAPID public key: an uncompressed P-256 point, base64url without padding. */
  vapidPublicKey: string;
}
