import type { CookieSerializeOptions } from "@fastify/cookie";
import { SESSION_COOKIE, sessionCookieName } from "../../shared/api/auth.js";

export { SESSION_COOKIE, sessionCookieName };

/** 14 days of inactivity end a session (sliding: each use, at most hourly, pushes it forward). */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_REFRESH_AFTER_MS = 60 * 60 * 1000;

/**
 * HttpOnly: no script reads it (XSS cannot steal it). SameSite=Lax: not sent on cross-site
 * subrequests (the CSRF origin check is the second line). Secure whenever Sino is served over
 * https, so it never travels in clear text. Never a Domain: the `__Host-` name over https requires that.
 */
export function sessionCookieOptions(secure: boolean, maxAgeMs: number): CookieSerializeOptions {
  return { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: Math.floor(maxAgeMs / 1000) };
}
