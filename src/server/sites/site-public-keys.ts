import type { SiteKeysRepository } from "../../store/site-keys-repository.js";
import type { KnownSite } from "./site-registry.js";

/**
 * Which VAPID key a site's visitors subscribe with (handed out by `/config` and the embed), and
 * which stored key a registration was made with. A `vapid_keys` row never changes under its id
 * nor its public key, so both look-ups are cached for the life of the process.
 */
export interface SitePublicKeys {
  /** The public key the site's new subscriptions are made with. */
  publicKeyOf(site: Pick<KnownSite, "vapidKeyId">): Promise<string>;
  /**
   * The key a registration was made with (null: Sino's default): the one the browser says it used
   * (`applicationServerKey`) when Sino knows it, else the site's current key.
   */
  keyIdOfRegistration(site: Pick<KnownSite, "vapidKeyId">, applicationServerKey: string | undefined): Promise<number | null>;
}

export function createSitePublicKeys(defaultPublicKey: string, keys: Pick<SiteKeysRepository, "infoByIds" | "idOfPublicKey">): SitePublicKeys {
  const publicById = new Map<number, string>();
  const idByPublic = new Map<string, number>();

  async function publicKeyOf(site: Pick<KnownSite, "vapidKeyId">): Promise<string> {
    const id = site.vapidKeyId;
    if (id === null) return defaultPublicKey;
    let key = publicById.get(id);
    if (key === undefined) {
      key = (await keys.infoByIds([id])).get(id)?.publicKey;
      // A row gone (never while a site points at it): the default key keeps the bell working.
      if (key === undefined) return defaultPublicKey;
      publicById.set(id, key);
    }
    return key;
  }

  async function keyIdOfRegistration(site: Pick<KnownSite, "vapidKeyId">, applicationServerKey: string | undefined): Promise<number | null> {
    if (applicationServerKey === undefined) return site.vapidKeyId;
    const given = applicationServerKey.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
    if (given === defaultPublicKey) return null;
    let id = idByPublic.get(given);
    if (id === undefined) {
      id = await keys.idOfPublicKey(given);
      if (id === undefined) return site.vapidKeyId;
      idByPublic.set(given, id);
    }
    return id;
  }

  return { publicKeyOf, keyIdOfRegistration };
}
