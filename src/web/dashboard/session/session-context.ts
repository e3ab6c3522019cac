import { createContext, useContext } from "react";
import type { SignInRequest, User } from "../api/types.js";

export type SessionState =
  | { status: "loading" }
  | { status: "signed-out" }
  | { status: "signed-in"; user: User }
  /** The server could not be asked (down, network): neither signed in nor out. */
  | { status: "unreachable"; error: unknown };

export interface Session {
  state: SessionState;
  signIn(request: SignInRequest): Promise<User>;
  signOut(): Promise<void>;
  /** After the first admin's set-up, which signs in on the server's side. */
  signedIn(user: User): void;
  reload(): void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside SessionProvider");
  return session;
}

/** The signed-in operator; only for components rendered inside RequireSession. */
export function useCurrentUser(): User {
  const { state } = useSession();
  if (state.status !== "signed-in") throw new Error("useCurrentUser without a session");
  return state.user;
}
