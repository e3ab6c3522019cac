import type { VapidKeys } from "../push/vapid-keys.js";
import type { SettingsRepository } from "./settings-repository.js";

/** Both keys in one row, so no process can ever read a public key paired with another's private key. */
export const VAPID_KEYS_SETTING = "vapid.keys";

/**
 * The server's VAPID key pair: `override` (from the environment) when given; otherwise the pair
 * kept in the database, generated on first start. When several processes start at once on a
 * fresh PostgreSQL database each may generate a pair, but only one insert wins and all of them
 * return that one (browsers subscribed with a key must keep receiving pushes signed by it).
 */
export async function ensureVapidKeys(
  settings: SettingsRepository,
  generate: () => VapidKeys,
  override?: VapidKeys,
): Promise<VapidKeys> {
  if (override !== undefined) return override;
  const existing = await settings.get(VAPID_KEYS_SETTING);
  const stored = existing ?? (await settings.insertIfAbsent(VAPID_KEYS_SETTING, JSON.stringify(generate())));
  return parseStoredKeys(stored);
}

function parseStoredKeys(value: string): VapidKeys {
  const parsed: unknown = JSON.parse(value);
  if (
    typeof parsed === "object" &&
    parsed !== null &&
    "publicKey" in parsed &&
    "privateKey" in parsed &&
    typeof parsed.publicKey === "string" &&
    typeof parsed.privateKey === "string"
  ) {
    return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
  }
  throw new Error(`Setting ${VAPID_KEYS_SETTING} does not hold a VAPID key pair`);
}
