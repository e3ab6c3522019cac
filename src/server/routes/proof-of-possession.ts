import { checkAuth } from "../../push/key-policy.js";
import { apiError } from "../errors.js";

/**
 * The public preference routes (channels, quiet hours, tags, the subscriber's own data) act on a
 * subscription only for whoever holds it: its endpoint and its auth secret, which only the browser
 * and this server know. The endpoint alone is not enough.
 */
export function proofOf(body: { readonly endpoint: string; readonly auth: string }): { endpoint: string; auth: string } {
  const auth = checkAuth(body.auth);
  if (!auth.ok) throw apiError(auth.code, "auth");
  return { endpoint: body.endpoint, auth: auth.value };
}

/** The two ways a proof fails, as every preference route answers them. */
export function refuseProof(outcome: "not_found" | "auth_mismatch"): never {
  if (outcome === "not_found") throw apiError("subscription_not_found", "endpoint");
  throw apiError("subscription_auth_mismatch", "auth");
}
