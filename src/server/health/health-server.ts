import type { AddressInfo } from "node:net";
import Fastify, { type FastifyBaseLogger } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Translator } from "../i18n.js";
import { registerHealthRoutes } from "./health-routes.js";
import type { ReadinessCheck } from "./readiness.js";

export interface HealthServer {
  /** `http://host:port`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * GET /healthz and GET /readyz alone, for a process with no HTTP server of its own (`sino worker`,
 * SINO_WORKER_HEALTH_PORT): what a container orchestrator or systemd probes to restart a worker
 * whose lanes are stuck or to hold it out while its database is away.
 */
export async function startHealthServer(options: {
  readonly host: string;
  readonly port: number;
  readonly check: ReadinessCheck;
  readonly translator: Translator;
  readonly logger: FastifyBaseLogger;
}): Promise<HealthServer> {
  const app = Fastify({ loggerInstance: options.logger, forceCloseConnections: true, return503OnClosing: true });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerHealthRoutes(app, { check: options.check, translator: options.translator, logger: options.logger });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}`, close: () => app.close() };
}
