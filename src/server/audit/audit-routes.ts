import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  AUDIT_PAGE_SIZE,
  auditExportQuerySchema,
  auditQuerySchema,
  auditResponseSchema,
  privacyResponseSchema,
  type AuditEntry,
  type PrivacyResponse,
} from "../../shared/api/audit.js";
import { API_ROUTES } from "../../shared/api/routes.js";
import type { AuditEntryRecord, AuditFilter, AuditRepository } from "../../store/audit-repository.js";
import type { OrganisationRepository } from "../../store/organisation-repository.js";
import type { Authenticator } from "../auth/authenticator.js";
import type { RetentionConfig } from "../config.js";
import { CSV_CONTENT_TYPE, UTF8_BOM, toCsv } from "../csv.js";
import { apiError } from "../errors.js";
import type { Translator } from "../i18n.js";
import { OPERATOR_SECURITY, apiErrorSchema, textResponse } from "../openapi.js";
import { AUDIT_ACTIONS } from "./audited-routes.js";

export interface AuditRoutesDeps {
  readonly audit: AuditRepository;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
}

/** Most rows one CSV export holds (newest first); narrow the period for more. */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;
const EXPORT_CHUNK = 1000;

function toFilter(query: { actor?: string | undefined; action?: string | undefined; from?: string | undefined; to?: string | undefined }): AuditFilter {
  const from = query.from === undefined ? undefined : Date.parse(query.from);
  const to = query.to === undefined ? undefined : Date.parse(query.to);
  if (from !== undefined && to !== undefined && from >= to) throw apiError("invalid_audit_period", "from");
  let actor: Pick<AuditFilter, "actorKind" | "actorId"> = {};
  if (query.actor === "anonymous") actor = { actorKind: "anonymous" };
  else if (query.actor !== undefined) {
    const [kind, id] = query.actor.split(":") as ["user" | "token", string];
    actor = { actorKind: kind, actorId: Number(id) };
  }
  return { ...actor, ...(query.action === undefined ? {} : { action: query.action }), ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

function present(entry: AuditEntryRecord): AuditEntry {
  return {
    id: String(entry.id),
    at: new Date(entry.at).toISOString(),
    actor: { kind: entry.actorKind, id: entry.actorId === null ? null : String(entry.actorId), name: entry.actorName },
    action: entry.action,
    targetId: entry.targetId,
    status: entry.status,
    ip: entry.ip,
    userAgent: entry.userAgent,
    requestId: entry.requestId,
  };
}

/** GET /audit and GET /audit.csv (admin). There is no route that edits or deletes an entry. */
export function registerAuditRoutes(app: FastifyInstance, deps: AuditRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = (summary: string) => ({ summary: t(summary), tags: [t("audit:api.tag")], security: OPERATOR_SECURITY });
  const { requireAdmin } = deps.authenticator;

  routes.get(
    API_ROUTES.audit,
    { onRequest: requireAdmin, schema: { operationId: "listAuditLog", ...doc("audit:api.list"), querystring: auditQuerySchema, response: { 200: auditResponseSchema, "4xx": apiErrorSchema } } },
    async (request, reply) => {
      const pageSize = request.query.pageSize ?? AUDIT_PAGE_SIZE;
      const page = request.query.page ?? 1;
      const filter = toFilter(request.query);
      const [result, stored] = await Promise.all([deps.audit.list(filter, (page - 1) * pageSize, pageSize), deps.audit.actions()]);
      const actions = [...new Set([...AUDIT_ACTIONS, ...stored])].sort();
      return reply.header("cache-control", "no-store").send({ entries: result.entries.map(present), total: result.total, actions });
    },
  );

  routes.get(
    API_ROUTES.auditCsv,
    {
      onRequest: requireAdmin,
      schema: { operationId: "exportAuditLog", ...doc("audit:api.export"), querystring: auditExportQuerySchema, produces: ["text/csv"], response: { 200: textResponse("text/csv", t("api:responses.csv")), "4xx": apiErrorSchema } },
    },
    async (request, reply) => {
      const filter = toFilter(request.query);
      const h = (key: string) => t(`audit:csv.${key}`);
      const rows: (string | number | null)[][] = [[h("at"), h("actorKind"), h("actorId"), h("actorName"), h("action"), h("actionLabel"), h("targetId"), h("status"), h("ip"), h("userAgent"), h("requestId")]];
      for (let offset = 0; offset < AUDIT_EXPORT_MAX_ROWS; offset += EXPORT_CHUNK) {
        const { entries } = await deps.audit.list(filter, offset, Math.min(EXPORT_CHUNK, AUDIT_EXPORT_MAX_ROWS - offset));
        for (const e of entries) {
          const label = t(`audit:actions.${e.action}`, { defaultValue: e.action });
          rows.push([new Date(e.at).toISOString(), t(`audit:actorKinds.${e.actorKind}`), e.actorId === null ? null : String(e.actorId), e.actorName, e.action, label, e.targetId, e.status, e.ip, e.userAgent, e.requestId]);
        }
        if (entries.length < EXPORT_CHUNK) break;
      }
      return reply
        .header("content-type", CSV_CONTENT_TYPE)
        .header("cache-control", "no-store")
        .header("content-disposition", 'attachment; filename="sino-auditoria.csv"')
        .send(UTF8_BOM + toCsv(rows));
    },
  );
}

export interface PrivacyRoutesDeps {
  readonly retention: RetentionConfig;
  /** SINO_SUBSCRIPTION_EXPIRY_DAYS (0: never). */
  readonly expiryDays: number;
  readonly organisation: Pick<OrganisationRepository, "get">;
  readonly translator: Translator;
}

/** GET /privacy (public): the retention periods the /privacidade page lists, from the running configuration. */
export function registerPrivacyRoutes(app: FastifyInstance, deps: PrivacyRoutesDeps): void {
  const { t } = deps.translator;
  const days = (n: number): number | null => (n > 0 ? n : null);
  app.withTypeProvider<ZodTypeProvider>().get(
    API_ROUTES.privacy,
    { schema: { operationId: "getPrivacy", summary: t("audit:api.privacy"), tags: [t("api:tags.public")], security: [], response: { 200: privacyResponseSchema, "4xx": apiErrorSchema } } },
    async (_request, reply): Promise<PrivacyResponse> => {
      const organisation = await deps.organisation.get();
      const body: PrivacyResponse = {
        eventRetentionDays: days(deps.retention.eventDays),
        removedRetentionDays: days(deps.retention.removedDays),
        auditRetentionDays: days(deps.retention.auditDays),
        consentRetentionDays: days(deps.retention.consentDays),
        inactiveSubscriptionDays: days(deps.expiryDays),
        organisationName: organisation.name,
      };
      return reply.header("cache-control", "public, max-age=300").send(body);
    },
  );
}
