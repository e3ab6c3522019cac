import type { SinoSnapshot } from "../../../src/client/index.js";
import type { SinoToken } from "./sino-slice.js";

/** The part of the embed core's client that the bridge reads. */
export interface SnapshotSource {
  getSnapshot(): SinoSnapshot;
  on(event: "change", listener: (snapshot: SinoSnapshot) => void): () => void;
}

/** An action creator like the slice's `setToken`: the host may pass its own slice's. */
export type SetTokenActionCreator<A> = (token: SinoToken | null) => A;

/**
 * Hands the client's token to the host's store (seed-spec §3, §7): `dispatch(setToken(token))`
 * once the client has settled (so a token left in a persisted store is cleared when the browser
 * has none) and after that on every change of token. Nothing is dispatched while `checking`, and
 * nothing for changes that leave the token as it was (busy, notices, channels). Returns the
 * function that disconnects.
 */
export function connectTokenToStore<A>(
  source: SnapshotSource,
  dispatch: (action: A) => unknown,
  setToken: SetTokenActionCreator<A>,
): () => void {
  let last: SinoToken | null | undefined;
  const sync = (snapshot: SinoSnapshot) => {
    if (snapshot.status === "checking" || snapshot.token === last) return;
    last = snapshot.token;
    dispatch(setToken(snapshot.token));
  };
  const stop = source.on("change", sync);
  sync(source.getSnapshot());
  return stop;
}
