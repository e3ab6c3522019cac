import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { segmentCountRequestSchema, segmentCountResponseSchema, segmentExplainRequestSchema, segmentExplainResponseSchema } from "../../../shared/api/segments.js";
import { formatSegment } from "../../../shared/segments/format.js";
import { resolveExpression } from "../../../shared/segments/schema.js";
import type { SegmentNode, SegmentTagKinds } from "../../../shared/segments/tree.js";
import { channelSlugsOf } from "../../../store/segment-sql.js";
import type { SegmentsRepository } from "../../../store/segments-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError, segmentApiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY } from "../../openapi.js";
import { requireJson } from "../../require-json.js";
import { explainSegment } from "../../segments/explain.js";
import { answers } from "../route-docs.js";

export interface SegmentQueryRoutesDeps {
  readonly segments: SegmentsRepository;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
}

/**
 * A segment expression counted now (any operator or token: the compose form's live count, a
 * script's check) and explained for one person or subscription (admins: it reads their tags).
 */
export function registerSegmentQueryRoutes(app: FastifyInstance, deps: SegmentQueryRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = (summary: string, description: string) => ({ summary: t(summary), description: t(description), tags: [t("api:tags.segments")], security: OPERATOR_SECURITY });
  const { requireUser, requireAdmin } = deps.authenticator;

  /** Text or tree → the tree, or a 400 naming the position and what was expected there. */
  function treeOf(expression: string | SegmentNode): SegmentNode {
    const resolved = resolveExpression(expression);
    if (!resolved.ok) throw segmentApiError(resolved.error, "expression");
    return resolved.tree;
  }

  async function answered(tree: SegmentNode, tagKinds: SegmentTagKinds) {
    const channelIds = await deps.segments.channelIds(tree);
    return {
      channelIds,
      body: { expression: formatSegment(tree), tree, tagKinds, unknownChannels: channelSlugsOf(tree).filter((slug) => !channelIds.has(slug)) },
    };
  }

  routes.post(
    API_ROUTES.segmentsCount,
    {
      onRequest: [requireUser, requireJson],
      schema: { operationId: "countSegment", ...doc("api:routes.segmentsCount", "api:descriptions.segmentsCount"), body: segmentCountRequestSchema, response: answers({ 200: segmentCountResponseSchema }) },
    },
    async (request) => {
      const tree = treeOf(request.body.expression);
      const { tagKinds } = request.body;
      const { channelIds, body } = await answered(tree, tagKinds);
      const count = await deps.segments.countSegment(tree, tagKinds, deps.now(), channelIds);
      return { ...count, ...body };
    },
  );

  routes.post(
    API_ROUTES.segmentsExplain,
    {
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "explainSegment", ...doc("api:routes.segmentsExplain", "api:descriptions.segmentsExplain"), body: segmentExplainRequestSchema, response: answers({ 200: segmentExplainResponseSchema }) },
    },
    async (request) => {
      const { expression, segment, userId, subscriptionId } = request.body;
      let tree: SegmentNode;
      let tagKinds: SegmentTagKinds = request.body.tagKinds ?? "trusted";
      if (segment !== undefined) {
        const saved = await deps.segments.savedExpression(Number(segment));
        if (saved === undefined) throw apiError("segment_not_found", "segment");
        tree = treeOf(saved.tree as SegmentNode);
        tagKinds = request.body.tagKinds ?? saved.tagKinds;
      } else {
        tree = treeOf(expression as string | SegmentNode);
      }
      const ids = userId !== undefined ? await deps.segments.subscriptionIdsOf(userId) : [Number(subscriptionId)];
      const facts = await deps.segments.facts(ids);
      if (facts.length === 0) throw userId !== undefined ? apiError("person_not_found", "userId") : apiError("subscriber_not_found", "subscriptionId");
      const { channelIds, body } = await answered(tree, tagKinds);
      const ctx = { tagKinds, now: deps.now(), channelIds };
      const subscriptions = facts.map((f) => {
        const explained = explainSegment(tree, f, ctx);
        return { id: String(f.id), matches: explained.held && !f.flagged, excluded: f.flagged, tree: explained };
      });
      return { matches: subscriptions.some((s) => s.matches), subscriptions, ...body };
    },
  );
}
