import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  createTemplateRequestSchema,
  templateResponseSchema,
  templatesResponseSchema,
  updateTemplateRequestSchema,
  type CreateTemplateRequest,
  type TemplateAudience,
} from "../../../shared/api/templates.js";
import type { ChannelsRepository } from "../../../store/channels-repository.js";
import type { SavedSegmentsRepository } from "../../../store/saved-segments-repository.js";
import type { SitesRepository } from "../../../store/sites-repository.js";
import type { TemplateContent, TemplatesRepository } from "../../../store/templates-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY, noContentSchema } from "../../openapi.js";
import { presentTemplate } from "../../presenters/template.js";
import { requireJson } from "../../require-json.js";
import { resolveAudience, type AudienceFields } from "../notifications/resolve-audience.js";
import { answers } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

export interface TemplateRoutesDeps {
  readonly templates: TemplatesRepository;
  readonly channels: Pick<ChannelsRepository, "listActive">;
  readonly sites: Pick<SitesRepository, "existingIds">;
  readonly savedSegments: Pick<SavedSegmentsRepository, "findById">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  /** SINO_PUBLIC_URL: an http link is accepted only on this origin, as in a send. */
  readonly publicUrl: string;
  readonly now: () => number;
}

const templateParams = idParamsOf("template_not_found");
const AUDIENCE_FIELDS: AudienceFields = { channels: "audience.channels", sites: "audience.sites" };

type Fields = Partial<Omit<CreateTemplateRequest, "name" | "audience">> & { audience?: TemplateAudience | { type: "segment"; segment: string | number; sites?: string[] } | null | undefined };

/**
 * Templates (*modelos*): any operator reads, saves, changes and deletes them, as any operator
 * sends. Each field is checked by the rule of the same field of a send, and the audience must
 * name channels, sites and a segment that exist now (a send from the template checks them again).
 */
export function registerTemplateRoutes(app: FastifyInstance, deps: TemplateRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = (operationId: string, summary: string) => ({ operationId, summary: t(summary), tags: [t("api:tags.templates")], security: OPERATOR_SECURITY });
  const { requireUser } = deps.authenticator;
  const origin = new URL(deps.publicUrl).origin;
  const byId = `${API_ROUTES.templates}/:id`;

  /** The fields given, checked and as stored; `undefined` members are left unchanged. */
  async function contentOf(body: Fields): Promise<Partial<TemplateContent>> {
    for (const field of ["url", "icon", "image"] as const) {
      const value = body[field];
      // https anywhere, a path here, or http only on this very origin (as a send's links).
      if (typeof value === "string" && value.startsWith("http:") && new URL(value).origin !== origin) throw apiError("link_invalid", field);
    }
    if (typeof body.badge === "string" && body.badge.startsWith("http:") && new URL(body.badge).origin !== origin) throw apiError("badge_invalid", "badge");
    body.actions?.forEach((action, index) => {
      if (action.url.startsWith("http:") && new URL(action.url).origin !== origin) throw apiError("action_link_invalid", `actions.${index}.url`);
    });
    const none = (value: string | null | undefined) => (value === undefined ? undefined : value === null || value === "" ? null : value);
    const content: { -readonly [K in keyof TemplateContent]?: TemplateContent[K] } = {};
    if (body.title !== undefined) content.title = body.title;
    for (const field of ["body", "url", "icon", "image", "collapseKey", "badge"] as const) {
      const value = none(body[field]);
      if (value !== undefined) content[field] = value;
    }
    if (body.actions !== undefined) content.actions = body.actions ?? [];
    for (const flag of ["renotify", "requireInteraction", "silent"] as const) if (body[flag] !== undefined) content[flag] = body[flag];
    if (body.appBadge !== undefined) content.appBadge = body.appBadge;
    if (body.data !== undefined) content.data = body.data;
    if (body.urgency !== undefined) content.urgency = body.urgency;
    if (body.ttl !== undefined) content.ttlSeconds = body.ttl;
    if (body.audience !== undefined) content.audience = body.audience === null ? null : await checkedAudience(body.audience);
    return content;
  }

  async function checkedAudience(asked: NonNullable<Fields["audience"]>): Promise<TemplateAudience> {
    const sites = asked.sites === undefined || asked.sites.length === 0 ? {} : { sites: [...new Set(asked.sites)] };
    await resolveAudience(deps, { channels: asked.type === "channels" ? asked.channels : undefined, sites: asked.sites }, AUDIENCE_FIELDS);
    if (asked.type === "channels") return { type: "channels", channels: [...new Set(asked.channels)], ...sites };
    if (asked.type === "segment") {
      const saved = await deps.savedSegments.findById(Number(asked.segment));
      if (saved === undefined) throw apiError("segment_not_found", "audience.segment");
      return { type: "segment", segment: String(saved.id), ...sites };
    }
    return { type: "all", ...sites };
  }

  routes.get(
    API_ROUTES.templates,
    { onRequest: requireUser, schema: { ...doc("listTemplates", "api:routes.templatesList"), response: answers({ 200: templatesResponseSchema }) } },
    async () => ({ templates: (await deps.templates.list()).map(presentTemplate) }),
  );

  routes.post(
    API_ROUTES.templates,
    {
      onRequest: [requireUser, requireJson],
      schema: { ...doc("createTemplate", "api:routes.templatesCreate"), body: createTemplateRequestSchema, response: answers({ 201: templateResponseSchema }) },
    },
    async (request, reply) => {
      const body = request.body;
      const content = await contentOf(body);
      const created = await deps.templates.create(
        {
          name: body.name,
          title: body.title,
          body: content.body ?? null,
          url: content.url ?? null,
          icon: content.icon ?? null,
          image: content.image ?? null,
          urgency: body.urgency,
          ttlSeconds: body.ttl,
          collapseKey: content.collapseKey ?? null,
          audience: content.audience ?? null,
          actions: content.actions ?? [],
          renotify: content.renotify ?? false,
          requireInteraction: content.requireInteraction ?? false,
          silent: content.silent ?? false,
          badge: content.badge ?? null,
          appBadge: content.appBadge ?? null,
          data: content.data ?? null,
        },
        deps.now(),
      );
      if (created === "name_taken") throw apiError("template_name_taken", "name");
      if (created === "too_many") throw apiError("too_many_templates");
      request.log.info({ templateId: created.id }, "template created");
      return reply.code(201).send({ template: presentTemplate(created) });
    },
  );

  routes.get(
    byId,
    { onRequest: requireUser, schema: { ...doc("getTemplate", "api:routes.templatesGet"), params: templateParams, response: answers({ 200: templateResponseSchema }) } },
    async (request) => {
      const template = await deps.templates.findById(Number(request.params.id));
      if (template === undefined) throw apiError("template_not_found");
      return { template: presentTemplate(template) };
    },
  );

  routes.patch(
    byId,
    {
      onRequest: [requireUser, requireJson],
      schema: {
        ...doc("updateTemplate", "api:routes.templatesUpdate"),
        params: templateParams,
        body: updateTemplateRequestSchema,
        response: answers({ 200: templateResponseSchema }),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      if ((await deps.templates.findById(id)) === undefined) throw apiError("template_not_found");
      const { name, ...fields } = request.body;
      const updated = await deps.templates.update(id, { ...(name === undefined ? {} : { name }), ...(await contentOf(fields)) }, deps.now());
      if (updated === undefined) throw apiError("template_not_found");
      if (updated === "name_taken") throw apiError("template_name_taken", "name");
      request.log.info({ templateId: updated.id }, "template updated");
      return { template: presentTemplate(updated) };
    },
  );

  routes.delete(
    byId,
    { onRequest: requireUser, schema: { ...doc("deleteTemplate", "api:routes.templatesDelete"), params: templateParams, response: answers({ 204: noContentSchema }) } },
    async (request, reply) => {
      if (!(await deps.templates.remove(Number(request.params.id)))) throw apiError("template_not_found");
      request.log.info({ templateId: Number(request.params.id) }, "template deleted");
      return reply.code(204).send(null);
    },
  );
}
