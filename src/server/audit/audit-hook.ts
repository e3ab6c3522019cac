import type { FastifyInstance, FastifyRequest } from "fastify";
import { API_ROUTES } from "../../shared/api/routes.js";
import type { AuditActorKind } from "../../store/audit-schema.js";
import type { AuditRepository } from "../../store/audit-repository.js";
import type { UsersRepository } from "../../store/users-repository.js";
import type { Authenticator } from "../auth/authenticator.js";
import type { Principal } from "../auth/principal.js";
import { AUDITED_ROUTES, SIGN_IN_FAILED, type AuditedRoute } from "./audited-routes.js";

export interface AuditHookDeps {
  readonly audit: Pick<AuditRepository, "append">;
  readonly users: Pick<UsersRepository, "findByEmail">;
  readonly authenticator: Pick<Authenticator, "authenticateSession">;
  readonly now: () => number;
}

interface Actor {
  readonly kind: AuditActorKind;
  readonly id: number | null;
  readonly name: string | null;
}

const ANONYMOUS: Actor = { kind: "anonymous", id: null, name: null };

function actorOf(principal: Principal | null): Actor | undefined {
  if (principal === null) return undefined;
  if (principal.kind === "session") return { kind: "user", id: principal.user.id, name: principal.user.name };
  return { kind: "token", id: principal.token.id, name: principal.token.name };
}

function auditedRouteOf(request: FastifyRequest): AuditedRoute | undefined {
  const url = request.routeOptions.url;
  if (url === undefined) return undefined;
  return AUDITED_ROUTES[`${request.method} ${url}`];
}

/** The JSON answer's own `id`, or that of the object it holds (`{ "user": { "id": "7" } }`). */
function responseObject(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== "string" || !payload.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(payload);
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function createdId(body: Record<string, unknown> | undefined): string | null {
  if (body === undefined) return null;
  if (typeof body.id === "string" || typeof body.id === "number") return String(body.id);
  for (const value of Object.values(body)) {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const id = (value as { id?: unknown }).id;
      if (typeof id === "string" || typeof id === "number") return String(id);
    }
  }
  return null;
}

/**
 * Records operator actions (audited-routes.ts) in the audit log: who (the signed-in user or the
 * token), when, what (action, target id, status) and from where (address, User-Agent). Written
 * before the answer leaves, so whoever got the answer can read the entry; a failed write is logged
 * and does not undo an action already done.
 */
export function registerAuditHook(app: FastifyInstance, deps: AuditHookDeps): void {
  // Routes that authenticate inside the handler (sign-out, own password change) or end the
  // session: who it was is read before the handler runs.
  const sessionActors = new WeakMap<FastifyRequest, Actor>();
  app.addHook("preHandler", async (request, reply) => {
    if (request.principal !== null || auditedRouteOf(request) === undefined || request.headers.authorization !== undefined) return;
    // Signing in or setting up: the answer says who (a stale cookie is not looked at here).
    if (request.method === "POST" && (request.routeOptions.url === API_ROUTES.session || request.routeOptions.url === API_ROUTES.setup)) return;
    try {
      const principal = await deps.authenticator.authenticateSession(request, reply);
      sessionActors.set(request, actorOf(principal)!);
    } catch {
      // Not signed in: the route answers for itself.
    }
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const route = auditedRouteOf(request);
    if (route === undefined) return payload;
    const status = reply.statusCode;
    const signIn = request.routeOptions.url === API_ROUTES.session && request.method === "POST";
    const succeeded = status >= 200 && status < 300;
    if (!succeeded && !(signIn && (status === 401 || status === 429))) return payload;
    const body = request.body;
    let action = typeof route.action === "string" ? route.action : route.action(body);
    const answer = succeeded ? responseObject(payload) : undefined;
    let actor = actorOf(request.principal) ?? sessionActors.get(request);
    let targetId: string | null = null;
    if (signIn || request.routeOptions.url === API_ROUTES.setup) {
      // The person signing in (or set up) is the actor, taken from the answer or, when refused, the
      // address they typed: the user's id when it is one of ours, the bare address otherwise.
      const user = answer?.user as { id?: string; name?: string } | undefined;
      if (succeeded && user?.id !== undefined) actor = { kind: "user", id: Number(user.id), name: user.name ?? null };
      else if (!succeeded) {
        action = SIGN_IN_FAILED;
        const email = typeof body === "object" && body !== null ? (body as { email?: unknown }).email : undefined;
        const known = typeof email === "string" ? await deps.users.findByEmail(email).catch(() => undefined) : undefined;
        actor = known !== undefined ? { kind: "user", id: known.id, name: known.name } : { kind: "anonymous", id: null, name: typeof email === "string" ? email.slice(0, 254) : null };
      }
    } else if (route.target !== "none") {
      const params = request.params as Record<string, unknown> | undefined;
      targetId = typeof params?.id === "string" ? params.id : createdId(answer);
    }
    // Signing out with no live session: nobody to name, nothing done.
    if (actor === undefined && action !== SIGN_IN_FAILED) return payload;
    const userAgent = request.headers["user-agent"];
    try {
      await deps.audit.append({
        at: deps.now(),
        actorKind: (actor ?? ANONYMOUS).kind,
        actorId: (actor ?? ANONYMOUS).id,
        actorName: (actor ?? ANONYMOUS).name,
        action,
        targetId,
        status,
        ip: request.ip ?? null,
        userAgent: typeof userAgent === "string" ? userAgent : null,
        requestId: request.id,
      });
    } catch (error) {
      request.log.error({ err: error, action }, "audit entry not written");
    }
    return payload;
  });
}

