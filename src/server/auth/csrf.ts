import type { FastifyReply, FastifyRequest } from "fastify";
import { apiError } from "../errors.js";
import { bearerOf } from "./authenticator.js";
import { sessionCookieName } from "./session-cookie.js";

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Whether the request says it comes from this server's own pages: its `Origin` (or, lacking
 * one, its `Referer`'s origin) is SINO_PUBLIC_URL's origin or the origin the request was sent to
 * (its Host). Browsers send Origin on every non-GET fetch and form post (Fetch §3.1); an absent
 * header is therefore treated as foreign. A rebinding attacker's page can match Host, but then
 * the browser holds no Sino cookie for that host.
 */
export function isOwnOrigin(request: FastifyRequest, publicOrigin: string): boolean {
  const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
  if (origin === undefined || origin === "null") return false;
  if (origin === publicOrigin) return true;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

export interface CsrfGuardOptions {
  /**
   * Requests the guard lets through whatever cookie they carry: the public subscriber API, which
   * registered sites call from their own origin. Those routes never read the session
   * cookie, so a cookie a browser happens to attach grants nothing there, and their own origin
   * check (src/server/sites/public-cors.ts) refuses any origin that is not Sino's or a site's.
   */
  readonly exempt?: (request: FastifyRequest) => boolean;
}

/**
 * `onRequest` hook for the whole server: a state-changing request that carries the session
 * cookie must come from our own origin (OWASP CSRF Cheat Sheet, "Verifying origin with standard
 * headers"), on top of SameSite=Lax. Requests with a bearer token are exempt: a token is never
 * sent by a browser on its own, so there is no ambient authority to abuse. Requests with no
 * cookie are not checked here: the public subscription routes (the bell, possibly embedded on
 * another site) carry no authority.
 */
export function createCsrfGuard(publicUrl: string, options: CsrfGuardOptions = {}) {
  const publicOrigin = new URL(publicUrl).origin;
  const cookieName = sessionCookieName(new URL(publicUrl).protocol === "https:");
  return async function csrfGuard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    if (!UNSAFE_METHODS.has(request.method)) return;
    if (bearerOf(request) !== undefined) return;
    const cookie = request.cookies[cookieName];
    if (cookie === undefined) return;
    if (options.exempt?.(request) === true) return;
    if (!isOwnOrigin(request, publicOrigin)) throw apiError("csrf_rejected");
  };
}

/**
 * Sign-in and set-up carry no cookie yet, but a foreign page posting them could sign the victim
 * into the attacker's account (login CSRF). Refuse them when the browser says they come from
 * elsewhere; scripts that notification no Origin are let through.
 */
export function createLoginCsrfGuard(publicUrl: string) {
  const publicOrigin = new URL(publicUrl).origin;
  return async function loginCsrfGuard(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    if (request.headers.origin === undefined && request.headers.referer === undefined) return;
    if (!isOwnOrigin(request, publicOrigin)) throw apiError("csrf_rejected");
  };
}
