import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { HEALTH_ROUTES, healthSchema, readinessSchema, type Readiness } from "../../shared/api/health.js";
import type { Translator } from "../i18n.js";
import { apiErrorSchema } from "../openapi.js";
import type { ReadinessCheck, ReadinessReport } from "./readiness.js";

export interface HealthRoutesDeps {
  readonly check: ReadinessCheck;
  readonly translator: Translator;
  readonly logger: FastifyBaseLogger;
}

/**
 * GET /healthz and GET /readyz. A probe every few seconds must not fill the log: Fastify's request
 * lines are off for both (`logLevel: "warn"`), and readiness logs only when it changes — once
 * when the process stops being ready (with the reason) and once when it is ready again.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthRoutesDeps): void {
  const { t } = deps.translator;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  let lastReady = true;

  typed.get(
    HEALTH_ROUTES.healthz,
    {
      logLevel: "warn",
      schema: {
        operationId: "getHealth",
        security: [],
        summary: t("api:routes.healthz"),
        description: t("api:health.healthz"),
        tags: [t("api:tags.operations")],
        // 4xx: only a wrong method or path (the not-found handler's error body).
        response: { 200: healthSchema, "4xx": apiErrorSchema },
      },
    },
    async (_request, reply) => reply.header("cache-control", "no-store").send({ status: "ok" }),
  );

  typed.get(
    HEALTH_ROUTES.readyz,
    {
      logLevel: "warn",
      schema: {
        operationId: "getReadiness",
        security: [],
        summary: t("api:routes.readyz"),
        description: t("api:health.readyz"),
        tags: [t("api:tags.operations")],
        response: { 200: readinessSchema, "4xx": apiErrorSchema, 503: readinessSchema },
      },
    },
    async (_request, reply) => {
      const report = await deps.check();
      if (report.ready !== lastReady) {
        lastReady = report.ready;
        if (report.ready) deps.logger.info({}, "ready again");
        else deps.logger.warn({ code: report.code, cause: report.cause, stalled: stalledOf(report) }, "not ready");
      }
      return reply
        .code(report.ready ? 200 : 503)
        .header("cache-control", "no-store")
        .send(present(report, deps.translator));
    },
  );
}

function stalledOf(report: ReadinessReport): string[] {
  return report.loops.components.filter((c) => !c.alive).map((c) => c.component);
}

function present(report: ReadinessReport, translator: Translator): Readiness {
  return {
    status: report.ready ? "ok" : "unavailable",
    checks: {
      database: report.database,
      migrations: report.migrations,
      loops: report.loops.components.map((c) => ({ component: c.component, alive: c.alive, ageMs: Math.round(c.ageMs) })),
    },
    ...(report.code === undefined ? {} : { error: { code: report.code, message: translator.t(`errors:${report.code}`) } }),
  };
}
