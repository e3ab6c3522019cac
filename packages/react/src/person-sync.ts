import { canonicalTags, type SignedUserClaim as UserClaim, type SinoClient, type Tags } from "../../../src/client/index.js";

/** The `user` prop of `<SinoProvider>`: who is signed in to the host app, or nobody. */
export type SinoUserProp = { id: string; signature?: string | null | undefined; tags?: Tags | undefined } | null | undefined;

export interface PersonSync {
  /** Called with the prop after each render that changed it; resolves when the client is told. */
  apply(user: SinoUserProp): Promise<void>;
}

/**
 * Turns the provider's `user` prop into `identify` / `forget` calls: identify when the id or the
 * signature changes, forget when the prop becomes empty after having named someone (sign-out). A
 * provider that never had a `user` never forgets, so a host calling `useSino().identify()` itself
 * is left alone. Calls run one after another, in the order of the renders, so a quick sign-out
 * and sign-in cannot reach the server swapped. Refusals are already in the console (the client
 * logs them), so they end here.
 */
export function createPersonSync(client: Pick<SinoClient, "identify" | "forget">): PersonSync {
  let last: UserClaim | null = null;
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (call: () => Promise<void>): Promise<void> => (queue = queue.then(call).catch(() => undefined));
  return {
    apply(user) {
      if (user) {
        const signed: UserClaim = user.signature ? { id: user.id, signature: user.signature } : { id: user.id };
        const person: UserClaim = user.tags === undefined ? signed : { ...signed, tags: user.tags };
        if (last !== null && last.id === person.id && last.signature === person.signature && tagsKey(last.tags) === tagsKey(person.tags)) return queue;
        last = person;
        return enqueue(() => client.identify(person.id, person.signature, person.tags));
      }
      if (last === null) return queue;
      last = null;
      return enqueue(() => client.forget());
    },
  };
}

/** Tags compared by their signed text (key order does not matter); none ≠ `{}`. */
function tagsKey(tags: Tags | undefined): string | null {
  return tags === undefined ? null : canonicalTags(tags);
}
