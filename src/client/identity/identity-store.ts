import type { SignedUserClaim as UserClaim } from "../../shared/api/subscriptions.js";
import { canonicalTags, isValidTagKey, isValidTagValue, type Tags } from "../../shared/api/tag-rule.js";

/**
 * Who the host page said the visitor is (`identify`), remembered across visits so that the first
 * subscribe and every visit's re-registration carry it. One entry per Sino server and site key:
 * localStorage is already per page origin, and the key keeps two Sino servers (or two site keys on
 * one origin) apart.
 */
export interface IdentityStore {
  read(): UserClaim | null;
  write(identity: UserClaim): void;
  clear(): void;
}

export function identityStorageKey(sinoUrl: string, site: string | null): string {
  return `sino:person:${sinoUrl}#${site ?? ""}`;
}

/**
 * Backed by `storage` when the browser allows it; a page where storage throws (disabled cookies,
 * Safari's private mode of old, a sandboxed frame) still keeps the identity for its own lifetime.
 */
export function createIdentityStore(storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null, key: string): IdentityStore {
  // Storage is read each time, not cached: a sign-out (forget) in another tab counts here too.
  let memory: UserClaim | null = null;
  let stored = storage !== null;
  return {
    read() {
      try {
        if (stored && storage) return parse(storage.getItem(key));
      } catch {
        // Unreadable storage or a corrupt entry: fall back to what this page was told.
      }
      return memory;
    },
    write(identity) {
      memory = identity;
      try {
        storage?.setItem(key, JSON.stringify(identity));
        stored = storage !== null;
      } catch {
        stored = false;
        // Full or disabled storage: this page still knows; the next visit's identify() repeats it.
      }
    },
    clear() {
      memory = null;
      try {
        storage?.removeItem(key);
      } catch {
        // As in write().
      }
    },
  };
}

function parse(text: string | null): UserClaim | null {
  if (text === null) return null;
  const value = JSON.parse(text) as { id?: unknown; signature?: unknown; tags?: unknown } | null;
  if (typeof value?.id !== "string") return null;
  const claim: UserClaim = typeof value.signature === "string" ? { id: value.id, signature: value.signature } : { id: value.id };
  const tags = parseTags(value.tags);
  return tags === undefined ? claim : { ...claim, tags };
}

/** Signed trusted tags as stored; anything malformed is dropped (the next identify() repeats them). */
function parseTags(value: unknown): Tags | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([key, v]) => isValidTagKey(key) && isValidTagValue(v)) ? (Object.fromEntries(entries) as Tags) : undefined;
}

export function sameIdentity(a: UserClaim | null, b: UserClaim | null): boolean {
  if (a === null || b === null || a.id !== b.id || a.signature !== b.signature) return false;
  return (a.tags === undefined) === (b.tags === undefined) && (a.tags === undefined || canonicalTags(a.tags) === canonicalTags(b.tags!));
}
