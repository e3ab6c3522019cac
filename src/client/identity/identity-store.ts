import type { UserClaim } from "../../shared/api/user-id.js";

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
  const value = JSON.parse(text) as { id?: unknown; signature?: unknown } | null;
  if (typeof value?.id !== "string") return null;
  return typeof value.signature === "string" ? { id: value.id, signature: value.signature } : { id: value.id };
}

export function sameIdentity(a: UserClaim | null, b: UserClaim | null): boolean {
  return a !== null && b !== null && a.id === b.id && a.signature === b.signature;
}
