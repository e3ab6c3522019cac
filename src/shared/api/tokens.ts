import { z } from "zod";
import { text } from "./text.js";

/** `publish` may only send notifications; `admin` acts as an admin, managing users and tokens. */
export const TOKEN_SCOPES = ["publish", "admin"] as const;
export const tokenScopeSchema = z.enum(TOKEN_SCOPES);
export type TokenScope = z.infer<typeof tokenScopeSchema>;

/** Every secret starts with this, so secret scanners (and people) recognise a leaked Sino token. */
export const TOKEN_SECRET_PREFIX = "sino_";
export const TOKEN_NAME_MAX_LENGTH = 100;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: tokenScopeSchema,
  /** The first characters of the secret (`sino_AbC1`), enough to recognise it, useless to use it. */
  prefix: z.string(),
  createdBy: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.string(),
  /** Recorded at most once a minute per token. */
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** GET /tokens (admin), newest first, revoked ones included. */
export const tokensResponseSchema = z.object({ tokens: z.array(apiTokenSchema) });
export type TokensResponse = z.infer<typeof tokensResponseSchema>;

/** POST /tokens (admin). */
export const createTokenRequestSchema = z.strictObject({
  name: text({ error: "name_required" })
    .trim()
    .min(1, { error: "name_required" })
    .max(TOKEN_NAME_MAX_LENGTH, { error: "name_too_long" }),
  scope: tokenScopeSchema,
});
export type CreateTokenRequest = z.input<typeof createTokenRequestSchema>;

/** 201: the secret is in this answer only; the server keeps just its SHA-256. */
export const createTokenResponseSchema = z.object({ token: apiTokenSchema, secret: z.string() });
export type CreateTokenResponse = z.infer<typeof createTokenResponseSchema>;
