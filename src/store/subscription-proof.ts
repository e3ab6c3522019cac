import type { Kysely } from "kysely";
import { normalizeEndpoint } from "../push/endpoint-policy.js";
import { constantTimeEqual } from "./constant-time.js";
import type { Schema } from "./schema.js";
import type { SubscriptionProof } from "./subscription-channels-repository.js";

/**
 * The subscription a proof of possession names: its id, `not_found` (no such endpoint) or
 * `auth_mismatch` (the auth secret is not its own, compared in constant time). Every route a
 * browser calls about its own subscription (channels, quiet hours, its data) checks it this way.
 */
export async function subscriptionByProof(db: Kysely<Schema>, proof: SubscriptionProof): Promise<{ readonly id: number } | "not_found" | "auth_mismatch"> {
  const row = await db.selectFrom("subscriptions").select(["id", "auth"]).where("endpoint", "=", normalizeEndpoint(proof.endpoint)).executeTakeFirst();
  if (row === undefined) return "not_found";
  if (!constantTimeEqual(row.auth, proof.auth)) return "auth_mismatch";
  return { id: Number(row.id) };
}
