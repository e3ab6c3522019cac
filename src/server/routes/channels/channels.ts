import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
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
import { presentChannel } from "../../presenters/channel.js";
import { requireJson } from "../../require-json.js";
import { changedFields, emptyToNull, emptyToNullIfGiven } from "../changed-fields.js";
import { answers, operatorDocs } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

export interface ChannelRoutesDeps {
  readonly channels: ChannelsRepository;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
}

const channelParams = idParamsOf("not_found");

/** Channels: any operator reads them (to send to one); admins create and edit. */
export function registerChannelRoutes(app: FastifyInstance, deps: ChannelRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = operatorDocs(deps.translator, "api:tags.channels");
  const { requireUser, requireAdmin } = deps.authenticator;

  routes.get(
    API_ROUTES.channels,
    { onRequest: requireUser, schema: { operationId: "listChannels", ...doc("api:routes.channelsList"), response: answers({ 200: channelsResponseSchema }) } },
    async () => ({ channels: (await deps.channels.list()).map(presentChannel) }),
  );

  routes.post(
    API_ROUTES.channels,
    {
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "createChannel", ...doc("api:routes.channelsCreate"), body: createChannelRequestSchema, response: answers({ 201: channelResponseSchema }) },
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
        response: answers({ 200: channelResponseSchema }),
      },
    },
    async (request) => {
      const body = request.body;
      const updated = await deps.channels.update(
        Number(request.params.id),
        changedFields({ name: body.name, description: emptyToNullIfGiven(body.description), isDefault: body.isDefault, archived: body.archived }),
      );
      if (updated === undefined) throw apiError("not_found");
      request.log.info({ channelId: updated.id }, "channel updated");
      return { channel: presentChannel(updated) };
    },
  );
}
