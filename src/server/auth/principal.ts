import type { UserRole } from "../../shared/api/users.js";
import type { ApiTokenRecord } from "../../store/api-tokens-repository.js";
import type { UserRecord } from "../../store/users-repository.js";
import type { Authenticator } from "./authenticator.js";

/** Who is making a request: a signed-in operator (cookie) or a script (API token). */
export type Principal =
  | { readonly kind: "session"; readonly user: UserRecord; readonly sessionIdHash: string }
  | { readonly kind: "token"; readonly token: ApiTokenRecord };

/** A token with scope `admin` acts as an admin; a `publish` token has a publisher's rights. */
export function roleOf(principal: Principal): UserRole {
  if (principal.kind === "session") return principal.user.role;
  return principal.token.scope === "admin" ? "admin" : "publisher";
}

/** The user on whose behalf the request acts (a token's creator for a token). */
export function actingUser(principal: Principal): { id: number; name: string } {
  if (principal.kind === "session") return { id: principal.user.id, name: principal.user.name };
  return { id: principal.token.createdById, name: principal.token.createdByName };
}

declare module "fastify" {
  interface FastifyInstance {
    /** The app's authenticator, for routes registered outside app.ts (and test-only routes). */
    authenticator: Authenticator;
  }
  interface FastifyRequest {
    /** Set by the authentication hooks (`requireUser`, `requireAdmin`); null on public routes. */
    principal: Principal | null;
  }
}
