import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  channelResponseSchema,
  channelsResponseSchema,
  createChannelRequestSchema,
  updateChannelRequestSchema,
} from "../../../shared/api/channels.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { ChannelsRepository } from "../../../store/channels-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY, apiErrorSchema } from "../../openapi.js";
import { presentChannel } from "../../presenters/channel.js";
import { requireJson } from "../../require-json.js";

export interface ChannelRoutesDeps {
  readonly channels: ChannelsRepository;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
}

const channelParams = z.object({ id: z.string().regex(/^\d{1,15}$/, { error: "not_found" }) });

/** Channels: any operator reads them (to send to one); admins create and edit. */
export function registerChannelRoutes(app: FastifyInstance, deps: ChannelRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = (summary: string) => ({ summary: t(summary), tags: [t("api:tags.channels")], security: OPERATOR_SECURITY });
  const { requireUser, requireAdmin } = deps.authenticator;

  routes.get(
    API_ROUTES.channels,
    { onRequest: requireUser, schema: { operationId: "listChannels", ...doc("api:routes.channelsList"), response: { 200: channelsResponseSchema, "4xx": apiErrorSchema } } },
    async () => ({ channels: (await deps.channels.list()).map(presentChannel) }),
  );

  routes.post(
    API_ROUTES.channels,
    {
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "createChannel", ...doc("api:routes.channelsCreate"), body: createChannelRequestSchema, response: { 201: channelResponseSchema, "4xx": apiErrorSchema } },
    },
    async (request, reply) => {
      const body = request.body;
      const created = await deps.channels.create(
        { slug: body.slug, name: body.name, description: emptyToNull(body.description), isDefault: body.isDefault ?? false },
        deps.now(),
      );
      if (created === "slug_taken") throw apiError("channel_slug_taken", "slug");
      request.log.info({ channelId: created.id }, "channel created");
      return reply.code(201).send({ channel: presentChannel(created) });
    },
  );

  routes.patch(
    `${API_ROUTES.channels}/:id`,
    {
      onRequest: [requireAdmin, requireJson],
      schema: {
        operationId: "updateChannel",
        ...doc("api:routes.channelsUpdate"),
        params: channelParams,
        body: updateChannelRequestSchema,
        response: { 200: channelResponseSchema, "4xx": apiErrorSchema },
      },
    },
    async (request) => {
      const body = request.body;
      const updated = await deps.channels.update(Number(request.params.id), {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.description === undefined ? {} : { description: emptyToNull(body.description) }),
        ...(body.isDefault === undefined ? {} : { isDefault: body.isDefault }),
        ...(body.archived === undefined ? {} : { archived: body.archived }),
      });
      if (updated === undefined) throw apiError("not_found");
      request.log.info({ channelId: updated.id }, "channel updated");
      return { channel: presentChannel(updated) };
    },
  );
}

function emptyToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === "" ? null : value;
}
