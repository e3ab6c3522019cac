import type { ApiToken } from "../../shared/api/tokens.js";
import type { ApiTokenRecord } from "../../store/api-tokens-repository.js";

/** An API token as listed: its prefix for recognition, never its secret or hash. */
export function presentApiToken(token: ApiTokenRecord): ApiToken {
  return {
    id: String(token.id),
    name: token.name,
    scope: token.scope,
    prefix: token.prefix,
    createdBy: { id: String(token.createdById), name: token.createdByName },
    createdAt: new Date(token.createdAt).toISOString(),
    lastUsedAt: token.lastUsedAt === null ? null : new Date(token.lastUsedAt).toISOString(),
    revokedAt: token.revokedAt === null ? null : new Date(token.revokedAt).toISOString(),
  };
}
