import type { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { EndpointPolicy } from "../../../push/endpoint-policy.js";
import { importQuerySchema, importResponseSchema, type ImportSummary } from "../../../shared/api/import.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { SitesRepository } from "../../../store/sites-repository.js";
import type { SubscriptionImportRepository } from "../../../store/subscription-import-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { ImportError } from "../../import/import-error.js";
import { resolveImportSite } from "../../import/import-site.js";
import { runImport } from "../../import/run-import.js";
import { OPERATOR_SECURITY } from "../../openapi.js";
import { answers } from "../route-docs.js";

export interface ImportRoutesDeps {
  readonly repository: SubscriptionImportRepository;
  readonly sites: Pick<SitesRepository, "list" | "countSubscriptions">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly endpointPolicy: EndpointPolicy;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION. */
  readonly maxChannelsPerSubscription: number;
  /** SINO_SITE_MAX_SUBSCRIPTIONS. */
  readonly maxSubscriptionsPerSite: number;
  /** SINO_IMPORT_MAX_BYTES. */
  readonly maxBytes: number;
  readonly now: () => number;
}

/** What the body may be declared as; the content itself decides the format (or `?format=`). */
const IMPORT_MEDIA_TYPES = ["application/x-ndjson", "application/json", "text/csv", "application/gzip", "application/octet-stream"];

/**
 * POST /subscribers/import (admin): the same import as `sino import`, with the file as the request
 * body. The body is never buffered: it streams from the socket through the parser into 500-row
 * transactions, so a million-row file takes the memory of one batch. A declared Content-Length
 * over SINO_IMPORT_MAX_BYTES is refused before anything is read; a body that grows past it while
 * streaming stops the import there (the rows before it stay, and a re-run stores nothing twice).
 */
export async function registerImportRoutes(app: FastifyInstance, deps: ImportRoutesDeps): Promise<void> {
  const { t } = deps.translator;
  await app.register(async (scope) => {
    // Only here: whatever its declared type, the body is handed over unread, as a stream.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    scope.withTypeProvider<ZodTypeProvider>().post(
      API_ROUTES.subscribersImport,
      {
        onRequest: [
          deps.authenticator.requireAdmin,
          async (request) => {
            const declared = Number(request.headers["content-length"] ?? Number.NaN);
            if (Number.isFinite(declared) && declared > deps.maxBytes) throw apiError("import_too_large");
          },
        ],
        schema: {
          operationId: "importSubscribers",
          summary: t("import:api.summary"),
          description: t("import:api.description"),
          tags: [t("api:tags.subscribers")],
          security: OPERATOR_SECURITY,
          consumes: IMPORT_MEDIA_TYPES,
          querystring: importQuerySchema,
          // The file itself (binary): validated while it streams, not as a parsed body.
          body: z.unknown().meta({ type: "string", format: "binary" }),
          response: answers({ 200: importResponseSchema }),
        },
      },
      async (request, reply): Promise<{ summary: ImportSummary }> => {
        const query = request.query;
        const body = request.body as Readable | undefined;
        try {
          const site = await resolveImportSite(deps.sites, query.site, deps.maxSubscriptionsPerSite);
          const summary = await runImport(
            { repository: deps.repository, endpointPolicy: deps.endpointPolicy, maxChannelsPerSubscription: deps.maxChannelsPerSubscription, maxBytes: deps.maxBytes, now: deps.now },
            {
              // Not destroyed when the import stops early: the rest is drained below instead,
              // so the refusal still reaches a client that is still sending.
              source: body?.iterator({ destroyOnReturn: false }) ?? [],
              site,
              format: query.format,
              channelsFromTags: query.channelsFromTags === "true",
              dryRun: query.dryRun === "true",
            },
          );
          const { refusals, ...counts } = summary;
          request.log.info({ ...counts, refusals: refusals.map(({ code, count }) => ({ code, count })) }, "subscribers imported");
          return { summary };
        } catch (error) {
          if (body !== undefined && !body.readableEnded) {
            // Refused part-way: discard the rest of the upload and close the connection after
            // the answer, so a client reusing it does not wait behind an upload nobody reads.
            reply.header("connection", "close");
            body.resume();
          }
          if (error instanceof ImportError) throw apiError(error.code, error.code === "site_not_found" ? "site" : undefined, { cause: error });
          throw error;
        }
      },
    );
  });
}
