import type { FastifyInstance } from "fastify";
import type { PublicConfig } from "../../../shared/api/config.js";
import { API_ROUTES } from "../../../shared/api/routes.js";

export interface ConfigRoutesDeps {
  /** Only the public key: the private one never leaves the server. */
  readonly vapidPublicKey: string;
}

export function registerConfigRoutes(app: FastifyInstance, deps: ConfigRoutesDeps): void {
  const body: PublicConfig = { vapidPublicKey: deps.vapidPublicKey };
  app.get(API_ROUTES.config, async (_request, reply) => {
    // Short cache: the key only changes when an operator rotates it, and then browsers should
    // pick up the new one on their next visit.
    return reply.header("cache-control", "no-cache").send(body);
  });
}
