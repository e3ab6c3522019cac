import { sql } from "kysely";
import type { ApiTokensTable } from "./schema.js";
import type { DatabaseHandle } from "./database.js";

export type TokenScope = ApiTokensTable["scope"];

export interface ApiTokenRecord {
  id: number;
  name: string;
  scope: TokenScope;
  prefix: string;
  createdById: number;
  /** The creator's current name, or the one they had when they were deleted. */
  createdByName: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface NewApiToken {
  name: string;
  scope: TokenScope;
  prefix: string;
  /** SHA-256 of the secret, hex. */
  secretHash: string;
  createdById: number;
  createdByName: string;
}

export interface ApiTokensRepository {
  create(token: NewApiToken, now: number): Promise<ApiTokenRecord>;
  /** Newest first, revoked ones included. */
  list(): Promise<ApiTokenRecord[]>;
  findBySecretHash(secretHash: string): Promise<ApiTokenRecord | undefined>;
  /** Idempotent: revoking a revoked token keeps its first revocation time. */
  revoke(id: number, now: number): Promise<"revoked" | "not_found">;
  /**
   * Records a use, unless one was recorded less than `minIntervalMs` ago: the condition sits in
   * the UPDATE itself, so busy tokens cost one write a minute, not one per request.
   */
  touch(id: number, now: number, minIntervalMs: number): Promise<void>;
}

export function createApiTokensRepository(database: DatabaseHandle): ApiTokensRepository {
  const { db } = database;
  function select() {
    return db
      .selectFrom("api_tokens")
      .leftJoin("users", "users.id", "api_tokens.created_by_id")
      .select([
        "api_tokens.id",
        "api_tokens.name",
        "api_tokens.scope",
        "api_tokens.prefix",
        "api_tokens.created_by_id",
        sql<string>`coalesce(${sql.ref("users.name")}, ${sql.ref("api_tokens.created_by_name")})`.as("created_by_name"),
        "api_tokens.created_at",
        "api_tokens.last_used_at",
        "api_tokens.revoked_at",
      ]);
  }

  type Row = Awaited<ReturnType<ReturnType<typeof select>["executeTakeFirstOrThrow"]>>;
  function toToken(row: Row): ApiTokenRecord {
    return {
      id: Number(row.id),
      name: row.name,
      scope: row.scope,
      prefix: row.prefix,
      createdById: Number(row.created_by_id),
      createdByName: row.created_by_name,
      createdAt: Number(row.created_at),
      lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
      revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    };
  }

  return {
    async create(token, now) {
      const { id } = await db
        .insertInto("api_tokens")
        .values({
          name: token.name,
          scope: token.scope,
          prefix: token.prefix,
          secret_hash: token.secretHash,
          created_by_id: token.createdById,
          created_by_name: token.createdByName,
          created_at: now,
          last_used_at: null,
          revoked_at: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      return toToken(await select().where("api_tokens.id", "=", Number(id)).executeTakeFirstOrThrow());
    },

    async list() {
      const rows = await select().orderBy("api_tokens.id", "desc").execute();
      return rows.map(toToken);
    },

    async findBySecretHash(secretHash) {
      const row = await select().where("api_tokens.secret_hash", "=", secretHash).executeTakeFirst();
      return row === undefined ? undefined : toToken(row);
    },

    async revoke(id, now) {
      const found = await db.selectFrom("api_tokens").select("id").where("id", "=", id).executeTakeFirst();
      if (found === undefined) return "not_found";
      await db.updateTable("api_tokens").set({ revoked_at: now }).where("id", "=", id).where("revoked_at", "is", null).execute();
      return "revoked";
    },

    async touch(id, now, minIntervalMs) {
      await db
        .updateTable("api_tokens")
        .set({ last_used_at: now })
        .where("id", "=", id)
        .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<=", now - minIntervalMs)]))
        .execute();
    },
  };
}
