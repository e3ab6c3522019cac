import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { importVapidKeys, isVapidKeyImportError, type VapidKeyFormat } from "../../../push/vapid-key-import.js";
import { generateVapidKeys } from "../../../push/vapid-keys.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  setSiteKeyRequestSchema,
  setSiteKeyResponseSchema,
  siteKeysResponseSchema,
  type SiteKeys,
  type VapidKeyPresentation,
} from "../../../shared/api/site-keys.js";
import type { SiteKeyChoice, SiteKeysRepository, SiteKeysSummary, VapidKeyInfo } from "../../../store/site-keys-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { requireJson } from "../../require-json.js";
import type { SiteRegistry } from "../../sites/site-registry.js";
import { answers, operatorDocs } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

export interface SiteKeyRoutesDeps {
  readonly siteKeys: SiteKeysRepository;
  /** Invalidated on every change, so `/config` and registrations use the new key at once. */
  readonly registry: Pick<SiteRegistry, "invalidate">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  /** Sino's default public key (SINO_VAPID_* or the one generated on first start). */
  readonly defaultPublicKey: string;
  readonly now: () => number;
}

const siteParams = idParamsOf("site_not_found");

/**
 * A site's VAPID keys (issue 20), admin only: which key its new subscriptions are made with, and
 * explicit rotation. The private key goes in (generated here or imported) and never comes out:
 * not in an answer, not in a log line.
 */
export function registerSiteKeyRoutes(app: FastifyInstance, deps: SiteKeyRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = operatorDocs(deps.translator, "api:tags.sites");
  const path = `${API_ROUTES.sites}/:id/vapid-key`;

  routes.get(
    path,
    {
      onRequest: deps.authenticator.requireAdmin,
      schema: { operationId: "getSiteVapidKey", ...doc("site-keys:api.get"), params: siteParams, response: answers({ 200: siteKeysResponseSchema }) },
    },
    async (request, reply) => {
      const summary = await deps.siteKeys.summary(Number(request.params.id));
      if (summary === undefined) throw apiError("site_not_found");
      reply.header("cache-control", "no-store");
      return { keys: presentSiteKeys(summary, deps.defaultPublicKey) };
    },
  );

  routes.put(
    path,
    {
      onRequest: [deps.authenticator.requireAdmin, requireJson],
      schema: {
        operationId: "setSiteVapidKey",
        ...doc("site-keys:api.set"),
        params: siteParams,
        body: setSiteKeyRequestSchema,
        response: answers({ 200: setSiteKeyResponseSchema }),
      },
    },
    async (request, reply) => {
      const siteId = Number(request.params.id);
      const { mode, key } = request.body;
      let choice: SiteKeyChoice = { kind: "default" };
      let format: VapidKeyFormat | undefined;
      if (mode === "generate") choice = { kind: "pair", keys: generateVapidKeys(), source: "generated" };
      if (mode === "import") {
        if (key === undefined || key.trim() === "") throw apiError("vapid_key_missing", "key");
        try {
          const imported = importVapidKeys(key);
          format = imported.format;
          // Sino's own default pair, imported: that is the default key.
          choice =
            imported.publicKey === deps.defaultPublicKey
              ? { kind: "default" }
              : { kind: "pair", keys: { publicKey: imported.publicKey, privateKey: imported.privateKey }, source: "imported" };
        } catch (error) {
          // The error carries a code and a message without key material; the text itself is not logged.
          if (isVapidKeyImportError(error)) throw apiError(error.code, "key");
          throw error;
        }
      }
      const result = await deps.siteKeys.setSiteKey(siteId, choice, deps.now());
      if (result === undefined) throw apiError("site_not_found");
      deps.registry.invalidate();
      const summary = await deps.siteKeys.summary(siteId);
      if (summary === undefined) throw apiError("site_not_found");
      request.log.info(
        { siteId, mode, format, keyId: result.current?.id ?? null, previousKeyId: result.previousKeyId, onPreviousKey: result.onPreviousKey, prunedKeys: result.pruned },
        "site VAPID key set",
      );
      reply.header("cache-control", "no-store");
      return { keys: presentSiteKeys(summary, deps.defaultPublicKey), onPreviousKey: result.onPreviousKey, ...(format === undefined ? {} : { format }) };
    },
  );
}

/** The summary as the API shows it: public keys, sources and counts; Sino's default key spelled out. */
export function presentSiteKeys(summary: SiteKeysSummary, defaultPublicKey: string): SiteKeys {
  const countOf = (keyId: number | null) => summary.usage.find((u) => u.keyId === keyId)?.subscriptions ?? 0;
  const present = (info: VapidKeyInfo): VapidKeyPresentation => ({
    publicKey: info.publicKey,
    source: info.source,
    createdAt: new Date(info.createdAt).toISOString(),
    subscriptions: countOf(info.id),
  });
  const defaultKey: VapidKeyPresentation = { publicKey: defaultPublicKey, source: "default", createdAt: null, subscriptions: countOf(null) };
  const previous = summary.previous.map(present).filter((key) => key.subscriptions > 0);
  if (summary.current !== null && defaultKey.subscriptions > 0) previous.unshift(defaultKey);
  return {
    siteId: String(summary.siteId),
    current: summary.current === null ? defaultKey : present(summary.current),
    previous,
    migrated: summary.migrated,
  };
}
