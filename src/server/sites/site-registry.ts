import type { SiteRecord, SitesRepository } from "../../store/sites-repository.js";

/** A site as the public API sees it: the built-in one carries SINO_PUBLIC_URL's origin. */
export interface KnownSite {
  readonly id: number;
  readonly origin: string;
  readonly key: string;
  readonly builtIn: boolean;
  /** The VAPID key (`vapid_keys.id`) its new subscriptions are made with; null: Sino's default. */
  readonly vapidKeyId: number | null;
}

export interface SiteRegistry {
  /** The registered site with this origin (Sino's own included), or undefined. */
  byOrigin(origin: string): Promise<KnownSite | undefined>;
  byKey(key: string): Promise<KnownSite | undefined>;
  /** Sino's own site. */
  builtIn(): Promise<KnownSite>;
  /** Drops the cache: the next look-up reads the table again (after a create or delete here). */
  invalidate(): void;
}

export interface SiteRegistryOptions {
  readonly sites: Pick<SitesRepository, "listPlain">;
  /** SINO_PUBLIC_URL's origin: the built-in site's. */
  readonly publicOrigin: string;
  readonly now: () => number;
  /**
   * How long a loaded list is trusted. Every CORS check and registration consults it, so it is
   * cached; this process invalidates it on every change it makes, and the bound covers changes
   * made by another process (several `sino start` behind a balancer) or the CLI.
   */
  readonly ttlMs?: number;
}

const DEFAULT_TTL_MS = 30_000;

interface Snapshot {
  readonly loadedAt: number;
  readonly byOrigin: ReadonlyMap<string, KnownSite>;
  readonly byKey: ReadonlyMap<string, KnownSite>;
  readonly builtIn: KnownSite;
}

/**
 * The registered sites, read once and kept in memory (sites are few; the check runs on every
 * public request). Concurrent look-ups during a reload share one query.
 */
export function createSiteRegistry(options: SiteRegistryOptions): SiteRegistry {
  const ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  let snapshot: Snapshot | undefined;
  let loading: Promise<Snapshot> | undefined;
  let generation = 0;

  async function load(): Promise<Snapshot> {
    const startedAt = generation;
    const rows = await options.sites.listPlain();
    // The built-in site last, so it wins should SINO_PUBLIC_URL come to name a registered origin.
    const known = rows.map((row) => toKnown(row, options.publicOrigin)).sort((a, b) => Number(a.builtIn) - Number(b.builtIn));
    const builtIn = known.find((site) => site.builtIn);
    if (builtIn === undefined) throw new Error("the built-in site is missing (migration 0006 not applied?)");
    const next: Snapshot = {
      loadedAt: options.now(),
      byOrigin: new Map(known.map((site) => [site.origin, site])),
      byKey: new Map(known.map((site) => [site.key, site])),
      builtIn,
    };
    // An invalidation during the query: this list may predate the change, so keep it uncached.
    if (startedAt === generation) snapshot = next;
    return next;
  }

  async function current(): Promise<Snapshot> {
    if (snapshot !== undefined && options.now() - snapshot.loadedAt < ttlMs) return snapshot;
    loading ??= load().finally(() => {
      loading = undefined;
    });
    return loading;
  }

  return {
    async byOrigin(origin) {
      return (await current()).byOrigin.get(origin);
    },
    async byKey(key) {
      return (await current()).byKey.get(key);
    },
    async builtIn() {
      return (await current()).builtIn;
    },
    invalidate() {
      generation++;
      snapshot = undefined;
      loading = undefined;
    },
  };
}

function toKnown(row: SiteRecord, publicOrigin: string): KnownSite {
  return { id: row.id, origin: row.origin ?? publicOrigin, key: row.key, builtIn: row.builtIn, vapidKeyId: row.vapidKeyId };
}
