import { useCallback, useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";
import { useDashboardServices } from "../services.js";
import { SessionContext } from "./session-context.js";
import type { Session, SessionState } from "./session-context.js";

/** Asks the server who is signed in (GET /session) once, and keeps the answer for every page. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const { api } = useDashboardServices();
  const [state, setState] = useState<SessionState>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    api.getSession().then(
      (user) => current && setState(user ? { status: "signed-in", user } : { status: "signed-out" }),
      (error: unknown) => current && setState({ status: "unreachable", error }),
    );
    return () => {
      current = false;
    };
  }, [api, attempt]);

  const signIn = useCallback<Session["signIn"]>(
    async (request) => {
      const user = await api.signIn(request);
      setState({ status: "signed-in", user });
      return user;
    },
    [api],
  );

  const signOut = useCallback(async () => {
    await api.signOut();
    setState({ status: "signed-out" });
  }, [api]);

  const reload = useCallback(() => {
    setState({ status: "loading" });
    setAttempt((n) => n + 1);
  }, []);

  const session = useMemo<Session>(
    () => ({ state, signIn, signOut, reload, signedIn: (user) => setState({ status: "signed-in", user }) }),
    [state, signIn, signOut, reload],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
