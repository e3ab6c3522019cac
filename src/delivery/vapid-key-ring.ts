import { createVapidSigner, type VapidSigner } from "../push/vapid.js";
import { parseVapidKeys } from "../push/vapid-keys.js";
import type { SiteKeysRepository } from "../store/site-keys-repository.js";

/**
 * The VAPID signers of every key a subscription may have been made with: Sino's default key (id
 * null) and the sites' own keys (`vapid_keys` rows). A stored pair never changes under its id, so
 * each signer is built once per process and kept: its JWTs stay cached per push service (one
 * ECDSA signature an hour per key and origin, not one per push).
 */
export interface VapidKeyRing {
  readonly defaultSigner: VapidSigner;
  /**
   * The signers of these key ids (null: the default), loading the unknown ones in one query. An
   * id whose row is gone maps to undefined: its pushes cannot be signed (see `signerOf`).
   */
  signers(ids: Iterable<number | null>): Promise<ReadonlyMap<number | null, VapidSigner | undefined>>;
  /** The public key of a key id (null: the default), or undefined when it is not stored. */
  publicKeyOf(id: number | null): Promise<string | undefined>;
}

export interface VapidKeyRingOptions {
  /** Signs for Sino's default key; its subject is every key's. */
  readonly defaultSigner: VapidSigner;
  readonly keys: Pick<SiteKeysRepository, "pairsByIds">;
}

export function createVapidKeyRing(options: VapidKeyRingOptions): VapidKeyRing {
  const { defaultSigner } = options;
  // Signers by id. Missing rows are not remembered: a key imported by another process after a
  // failed look-up is found on the next batch.
  const cache = new Map<number, VapidSigner>();
  let loading: Promise<void> = Promise.resolve();

  async function load(ids: readonly number[]): Promise<void> {
    const missing = ids.filter((id) => !cache.has(id));
    if (missing.length === 0) return;
    const pairs = await options.keys.pairsByIds(missing);
    for (const [id, pair] of pairs) {
      if (!cache.has(id)) cache.set(id, createVapidSigner({ keys: parseVapidKeys(pair), subject: defaultSigner.subject }));
    }
  }

  async function signers(ids: Iterable<number | null>): Promise<ReadonlyMap<number | null, VapidSigner | undefined>> {
    const wanted = [...new Set(ids)];
    const stored = wanted.filter((id): id is number => id !== null);
    if (stored.some((id) => !cache.has(id))) {
      // One load at a time: lanes asking for the same new key share its query.
      loading = loading.then(() => load(stored), () => load(stored));
      await loading;
    }
    return new Map(wanted.map((id) => [id, id === null ? defaultSigner : cache.get(id)] as const));
  }

  return {
    defaultSigner,
    signers,
    async publicKeyOf(id) {
      const signer = (await signers([id])).get(id);
      return signer?.publicKey;
    },
  };
}
