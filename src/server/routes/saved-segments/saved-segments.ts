import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { measureSegment, type SegmentCounter } from "../../../delivery/segment-sizes-task.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  SAVED_SEGMENT_LIMITS,
  createSegmentRequestSchema,
  savedSegmentDetailResponseSchema,
  savedSegmentResponseSchema,
  savedSegmentsResponseSchema,
  updateSegmentRequestSchema,
} from "../../../shared/api/saved-segments.js";
import { utcDay, type SavedSegment, type SavedSegmentsRepository } from "../../../store/saved-segments-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { noContentSchema } from "../../openapi.js";
import { presentSavedSegment, presentSavedSegmentDetail } from "../../presenters/saved-segment.js";
import { requireJson } from "../../require-json.js";
import { segmentTreeOf } from "./segment-expression.js";
import { answers, operatorDocs } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

export interface SavedSegmentRoutesDeps {
  readonly savedSegments: SavedSegmentsRepository;
  /** Counts an expression's audience (the size measured on create and on every change). */
  readonly count: SegmentCounter;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
}

const segmentParams = idParamsOf("segment_not_found");

const DAY_MS = 86_400_000;

/** Saved segments: any operator reads them (to send to one); admins create, edit and delete. */
export function registerSavedSegmentRoutes(app: FastifyInstance, deps: SavedSegmentRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = operatorDocs(deps.translator, "api:tags.segments");
  const { requireUser, requireAdmin } = deps.authenticator;

  /**
   * The size of the segment as it now is: measured on every create and change, then daily. A
   * count that fails (too slow: `segment_timeout`) leaves the last size; the save stands.
   */
  async function measured(segment: SavedSegment, log: FastifyBaseLogger): Promise<SavedSegment> {
    try {
      const size = await measureSegment({ segments: deps.savedSegments, count: deps.count }, segment, deps.now());
      return { ...segment, size };
    } catch (error) {
      log.warn({ segmentId: segment.id, cause: error instanceof Error ? error.message : String(error) }, "segment size not measured");
      return segment;
    }
  }

  routes.get(
    API_ROUTES.segments,
    { onRequest: requireUser, schema: { operationId: "listSegments", ...doc("api:routes.segmentsList"), response: answers({ 200: savedSegmentsResponseSchema }) } },
    async () => ({ segments: (await deps.savedSegments.list()).map(presentSavedSegment) }),
  );

  routes.post(
    API_ROUTES.segments,
    {
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "createSegment", ...doc("api:routes.segmentsCreate"), body: createSegmentRequestSchema, response: answers({ 201: savedSegmentResponseSchema }) },
    },
    async (request, reply) => {
      const body = request.body;
      const tree = segmentTreeOf(body.expression, "expression");
      const created = await deps.savedSegments.create({ name: body.name, description: emptyToNull(body.description), tree, tagKinds: body.tagKinds }, deps.now());
      if (created === "name_taken") throw apiError("segment_name_taken", "name");
      if (created === "too_many") throw apiError("too_many_segments");
      request.log.info({ segmentId: created.id }, "segment created");
      return reply.code(201).send({ segment: presentSavedSegment(await measured(created, request.log)) });
    },
  );

  routes.get(
    `${API_ROUTES.segments}/:id`,
    {
      onRequest: requireUser,
      schema: { operationId: "getSegment", ...doc("api:routes.segmentsGet"), params: segmentParams, response: answers({ 200: savedSegmentDetailResponseSchema }) },
    },
    async (request) => {
      const id = Number(request.params.id);
      const segment = await deps.savedSegments.findById(id);
      if (segment === undefined) throw apiError("segment_not_found");
      const since = utcDay(deps.now() - (SAVED_SEGMENT_LIMITS.historyDays - 1) * DAY_MS);
      const [history, sends] = await Promise.all([deps.savedSegments.history(id, since), deps.savedSegments.sends(id, SAVED_SEGMENT_LIMITS.sends)]);
      return { segment: presentSavedSegmentDetail(segment, history, sends) };
    },
  );

  routes.patch(
    `${API_ROUTES.segments}/:id`,
    {
      onRequest: [requireAdmin, requireJson],
      schema: {
        operationId: "updateSegment",
        ...doc("api:routes.segmentsUpdate"),
        params: segmentParams,
        body: updateSegmentRequestSchema,
        response: answers({ 200: savedSegmentResponseSchema }),
      },
    },
    async (request) => {
      const body = request.body;
      const tree = body.expression === undefined ? undefined : segmentTreeOf(body.expression, "expression");
      const updated = await deps.savedSegments.update(
        Number(request.params.id),
        {
          ...(body.name === undefined ? {} : { name: body.name }),
          ...(body.description === undefined ? {} : { description: emptyToNull(body.description) }),
          ...(tree === undefined ? {} : { tree }),
          ...(body.tagKinds === undefined ? {} : { tagKinds: body.tagKinds }),
        },
        deps.now(),
      );
      if (updated === undefined) throw apiError("segment_not_found");
      if (updated === "name_taken") throw apiError("segment_name_taken", "name");
      request.log.info({ segmentId: updated.id }, "segment updated");
      const changedAudience = tree !== undefined || body.tagKinds !== undefined;
      return { segment: presentSavedSegment(changedAudience || updated.size === null ? await measured(updated, request.log) : updated) };
    },
  );

  routes.delete(
    `${API_ROUTES.segments}/:id`,
    { onRequest: requireAdmin, schema: { operationId: "deleteSegment", ...doc("api:routes.segmentsDelete"), params: segmentParams, response: answers({ 204: noContentSchema }) } },
    async (request, reply) => {
      const outcome = await deps.savedSegments.remove(Number(request.params.id));
      if (outcome === "not_found") throw apiError("segment_not_found");
      if (outcome === "in_use") throw apiError("segment_in_use");
      request.log.info({ segmentId: Number(request.params.id) }, "segment deleted");
      return reply.code(204).send(null);
    },
  );
}

function emptyToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === "" ? null : value;
}
