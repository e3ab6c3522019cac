import { useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import { createSinoClient } from "../../../src/client/index.js";
import type { SinoClick, SinoClient, SinoClientOptions, Tags } from "../../../src/client/index.js";
import { createPersonSync } from "./person-sync.js";
import type { PersonSync, SinoUserProp } from "./person-sync.js";
import { SinoContext } from "./sino-context.js";
import { setToken as sliceSetToken } from "./sino-slice.js";
import type { SinoToken } from "./sino-slice.js";
import { connectTokenToStore } from "./token-bridge.js";

/** What `setToken` makes: `{ type: "sino/setToken", payload: token }` for the package's slice. */
export interface SetTokenAction {
  type: string;
  payload: SinoToken | null;
}

interface CommonProps {
  children?: ReactNode;
  /**
   * The host app's store `dispatch` (`store.dispatch`, or `useDispatch()` from react-redux): the
   * token is handed to it as `setToken(token)` whenever it changes.
   */
  dispatch?: ((action: SetTokenAction) => unknown) | undefined;
  /**
   * The action creator to dispatch; default the package slice's `setToken` (`sino/setToken`).
   * A host with the slice under another name passes that slice's (`createSinoSlice("push")`).
   */
  setToken?: ((token: SinoToken | null) => SetTokenAction) | undefined;
  /**
   * Who is signed in to the host app: `{ id, signature }`, the signature being the hex
   * HMAC-SHA256 of the id with the site's identity secret, computed on the host's server. The
   * subscription is tied to that person (now, or when the bell is turned on); a new id or
   * signature identifies again; `null`/`undefined` after someone was named forgets (sign-out).
   * `tags`: trusted tags for the person, signed with the id (the signature is then the HMAC of
   * `${id}\n${canonical tags}`; see the README's "Etiquetas"); new tags identify again.
   */
  user?: SinoUserProp;
  /**
   * Called when a click on one of Sino's notifications reaches this page (the window the service
   * worker focused or opened): `{ notificationId, action: "open" | "1" | "2", url, data }`, `data`
   * being the JSON the sender attached, e.g. to route to the right screen. `useSino().onClick`
   * does the same from any component.
   */
  onNotificationClick?: ((click: SinoClick) => void) | undefined;
}

export type SinoProviderProps = CommonProps &
  (
    | (Pick<SinoClientOptions, "sinoUrl" | "site" | "serviceWorkerUrl" | "serviceWorkerScope" | "timeoutMs" | "logger"> & {
        client?: undefined;
      })
    | {
        /** A client made elsewhere (e.g. shared with other code on the page); then no options here. */
        client: SinoClient;
        sinoUrl?: undefined;
      }
  );

/**
 * Makes one embed-core client for the tree below (the options are read once, at mount: give the
 * provider a `key` to start over with others), starts it, and hands its token to the host's store.
 * On the server (no `window`) there is no client, and the bell renders nothing.
 */
export function SinoProvider(props: SinoProviderProps) {
  const [client] = useState<SinoClient | null>(() => {
    if (props.client) return props.client;
    if (typeof window === "undefined") return null;
    // Making the client has no side effect (nothing runs before start()), so React running this
    // initialiser twice in StrictMode is harmless.
    const { sinoUrl, site, serviceWorkerUrl, serviceWorkerScope, timeoutMs, logger } = props;
    return createSinoClient({
      sinoUrl,
      ...(site === undefined ? {} : { site }),
      ...(serviceWorkerUrl === undefined ? {} : { serviceWorkerUrl }),
      ...(serviceWorkerScope === undefined ? {} : { serviceWorkerScope }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(logger === undefined ? {} : { logger }),
    });
  });

  // The latest dispatch and action creator, read at each change: an inline function given on
  // every render must not reconnect (and re-dispatch) each time the parent renders.
  const handTo = useRef({ dispatch: props.dispatch, setToken: props.setToken, onNotificationClick: props.onNotificationClick });
  useEffect(() => {
    handTo.current = { dispatch: props.dispatch, setToken: props.setToken, onNotificationClick: props.onNotificationClick };
  });

  // Listened to for the provider's whole life (the latest handler is read at each click), so a
  // handler given inline does not re-subscribe on each render.
  useEffect(() => {
    if (!client) return undefined;
    return client.on("click", (click) => handTo.current.onNotificationClick?.(click));
  }, [client]);

  useEffect(() => {
    if (!client) return undefined;
    const setToken = (token: SinoToken | null) => (handTo.current.setToken ?? sliceSetToken)(token);
    return connectTokenToStore(client, (action: SetTokenAction) => handTo.current.dispatch?.(action), setToken);
  }, [client]);

  useEffect(() => {
    // Idempotent: StrictMode's second effect run reuses the first start.
    if (client) void client.start();
  }, [client]);

  // Keyed on the id and the signature, not the object: `user={{ id, signature }}` is a new object
  // on every render of the parent.
  const personSync = useRef<PersonSync | null>(null);
  const userId = props.user?.id;
  const signature = props.user?.signature ?? undefined;
  // The tags as sorted JSON: equal tags in another object (or another key order) change nothing.
  const tagsJson = props.user?.tags === undefined ? undefined : JSON.stringify(Object.entries(props.user.tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  useEffect(() => {
    if (!client) return;
    personSync.current ??= createPersonSync(client);
    const tags = tagsJson === undefined ? undefined : (Object.fromEntries(JSON.parse(tagsJson) as Array<[string, Tags[string]]>) as Tags);
    void personSync.current.apply(userId === undefined ? null : { id: userId, signature, tags });
  }, [client, userId, signature, tagsJson]);

  return <SinoContext.Provider value={client}>{props.children}</SinoContext.Provider>;
}
