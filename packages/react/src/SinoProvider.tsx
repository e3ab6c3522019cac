import { useEffect, useState } from "react";
import type { ReactNode } from "react";
import { createSinoClient } from "../../../src/client/index.js";
import type { SinoClient, SinoClientOptions } from "../../../src/client/index.js";
import { SinoContext } from "./sino-context.js";
import { setToken as sliceSetToken } from "./sino-slice.js";
import { connectTokenToStore } from "./token-bridge.js";
import type { SetTokenActionCreator } from "./token-bridge.js";

interface CommonProps<A> {
  children?: ReactNode;
  /**
   * The host app's store `dispatch` (`store.dispatch`, or `useDispatch()` from react-redux): the
   * token is handed to it as `setToken(token)` whenever it changes.
   */
  dispatch?: ((action: A) => unknown) | undefined;
  /** The action creator to dispatch; default the package slice's `setToken` (`sino/setToken`). */
  setToken?: SetTokenActionCreator<A> | undefined;
}

export type SinoProviderProps<A> = CommonProps<A> &
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
export function SinoProvider<A = ReturnType<typeof sliceSetToken>>(props: SinoProviderProps<A>) {
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

  const { dispatch } = props;
  const setToken = (props.setToken ?? sliceSetToken) as SetTokenActionCreator<A>;

  useEffect(() => {
    if (!client || !dispatch) return undefined;
    return connectTokenToStore(client, dispatch, setToken);
  }, [client, dispatch, setToken]);

  useEffect(() => {
    // Idempotent: StrictMode's second effect run reuses the first start.
    if (client) void client.start();
  }, [client]);

  return <SinoContext.Provider value={client}>{props.children}</SinoContext.Provider>;
}
