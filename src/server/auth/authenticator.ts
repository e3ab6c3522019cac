import type { FastifyReply, FastifyRequest } from "fastify";
import { TOKEN_SECRET_PREFIX } from "../../shared/api/tokens.js";
import type { ApiTokensRepository } from "../../store/api-tokens-repository.js";
import type { SessionsRepository } from "../../store/sessions-repository.js";
import type { UserRecord } from "../../store/users-repository.js";
import { apiError } from "../errors.js";
import { roleOf, type Principal } from "./principal.js";
import { newSecret, sha256Hex } from "./secrets.js";
import { SESSION_REFRESH_AFTER_MS, SESSION_TTL_MS, sessionCookieName, sessionCookieOptions } from "./session-cookie.js";

/** A token's last use is written at most this often (one write a minute, not one per request). */
export const TOKEN_TOUCH_INTERVAL_MS = 60_000;

export interface AuthenticatorDeps {
  readonly sessions: SessionsRepository;
  readonly tokens: ApiTokensRepository;
  readonly now: () => number;
  /** Secure cookies: SINO_PUBLIC_URL is https. */
  readonly secureCookies: boolean;
}

type SessionPrincipal = Extract<Principal, { kind: "session" }>;

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

export interface Authenticator {
  /** The request's principal, or an `unauthenticated` / `token_invalid` / `token_revoked` error. */
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Principal>;
  /**
   * The signed-in operator from the session cookie alone (GET /session, PUT /session/password), or
   * `unauthenticated`; unlike `authenticate`, also one whose password must be changed.
   */
  authenticateSession(request: FastifyRequest, reply: FastifyReply): Promise<SessionPrincipal>;
  /** Route hook: any signed-in operator or any valid token. */
  readonly requireUser: Hook;
  /**
   * Route hook for routes made for scripts (the quick publish): like `requireUser`, but a request
   * with no credentials at all is told to send a token (`token_missing`), not to sign in.
   */
  readonly requireScriptUser: Hook;
  /** Route hook: an admin (session) or an admin-scope token; others get 403 `forbidden`. */
  readonly requireAdmin: Hook;
  /** Signs `user` in with a NEW session id (never reusing one the browser brought: no fixation). */
  startSession(request: FastifyRequest, reply: FastifyReply, user: UserRecord): Promise<void>;
  /** Deletes the session server-side and clears the cookie. */
  endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** `Authorization: Bearer <secret>`; undefined when the header is absent. */
export function bearerOf(request: FastifyRequest): string | undefined | null {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

export function createAuthenticator(deps: AuthenticatorDeps): Authenticator {
  const cookieName = sessionCookieName(deps.secureCookies);
  async function fromToken(secret: string | null): Promise<Principal> {
    // Only scripts send an Authorization header, so the answer speaks to one: which header to fix.
    if (secret === null || !secret.startsWith(TOKEN_SECRET_PREFIX)) throw apiError("token_invalid");
    const token = await deps.tokens.findBySecretHash(sha256Hex(secret));
    if (token === undefined) throw apiError("token_invalid");
    if (token.revokedAt !== null) throw apiError("token_revoked");
    const now = deps.now();
    if (token.lastUsedAt === null || now - token.lastUsedAt >= TOKEN_TOUCH_INTERVAL_MS) {
      await deps.tokens.touch(token.id, now, TOKEN_TOUCH_INTERVAL_MS);
    }
    return { kind: "token", token };
  }

  async function fromSession(request: FastifyRequest, reply: FastifyReply): Promise<SessionPrincipal> {
    const cookie = request.cookies[cookieName];
    if (cookie === undefined || cookie === "") throw apiError("unauthenticated");
    const idHash = sha256Hex(cookie);
    const now = deps.now();
    const active = await deps.sessions.findActive(idHash, now);
    if (active === undefined) {
      // A `__Host-` cookie is only replaced (here: expired) by a Secure Set-Cookie.
      reply.clearCookie(cookieName, { path: "/", secure: deps.secureCookies });
      throw apiError("unauthenticated");
    }
    if (now - active.session.refreshedAt >= SESSION_REFRESH_AFTER_MS) {
      await deps.sessions.refresh(idHash, now + SESSION_TTL_MS, now);
      reply.setCookie(cookieName, cookie, sessionCookieOptions(deps.secureCookies, SESSION_TTL_MS));
    }
    return { kind: "session", user: active.user, sessionIdHash: idHash };
  }

  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Principal> {
    if (request.principal !== null) return request.principal;
    // A bearer token wins over a cookie: scripts never rely on ambient browser state.
    const bearer = bearerOf(request);
    const principal = bearer === undefined ? await fromSession(request, reply) : await fromToken(bearer);
    // A temporary password (an admin's reset) opens nothing but its own change (PUT
    // /session/password, which asks authenticateSession) and sign-out: whoever learnt it on the
    // way cannot use the account, and its owner is made to choose one only they know.
    if (principal.kind === "session" && principal.user.mustChangePassword) throw apiError("password_change_required");
    request.principal = principal;
    return principal;
  }

  return {
    authenticate,
    authenticateSession: fromSession,
    async requireUser(request, reply) {
      await authenticate(request, reply);
    },
    async requireScriptUser(request, reply) {
      const cookie = request.cookies[cookieName];
      if (bearerOf(request) === undefined && (cookie === undefined || cookie === "")) throw apiError("token_missing");
      await authenticate(request, reply);
    },
    async requireAdmin(request, reply) {
      const principal = await authenticate(request, reply);
      if (roleOf(principal) !== "admin") throw apiError("forbidden");
    },
    async startSession(request, reply, user) {
      const now = deps.now();
      const old = request.cookies[cookieName];
      if (old !== undefined && old !== "") await deps.sessions.remove(sha256Hex(old));
      const id = newSecret(32);
      await deps.sessions.create({ idHash: sha256Hex(id), userId: user.id, createdAt: now, expiresAt: now + SESSION_TTL_MS, refreshedAt: now });
      reply.setCookie(cookieName, id, sessionCookieOptions(deps.secureCookies, SESSION_TTL_MS));
    },
    async endSession(request, reply) {
      const cookie = request.cookies[cookieName];
      if (cookie !== undefined && cookie !== "") await deps.sessions.remove(sha256Hex(cookie));
      reply.clearCookie(cookieName, { path: "/", httpOnly: true, sameSite: "lax", secure: deps.secureCookies });
    },
  };
}
