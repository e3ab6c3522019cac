import type { SelectQueryBuilder } from "kysely";
import type { AuditActorKind } from "./audit-schema.js";
import { toCount } from "./count.js";
import type { DatabaseHandle } from "./database.js";
import type { Schema } from "./schema.js";

export interface NewAuditEntry {
  readonly at: number;
  readonly actorKind: AuditActorKind;
  readonly actorId: number | null;
  readonly actorName: string | null;
  readonly action: string;
  readonly targetId: string | null;
  readonly status: number;
  readonly ip: string | null;
  readonly userAgent: string | null;
  readonly requestId: string | null;
}

export interface AuditEntryRecord extends NewAuditEntry {
  readonly id: number;
}

export interface AuditFilter {
  readonly actorKind?: AuditActorKind;
  /** With `actorKind` user or token. */
  readonly actorId?: number;
  readonly action?: string;
  /** Inclusive, epoch ms. */
  readonly from?: number;
  /** Exclusive, epoch ms. */
  readonly to?: number;
}

/**
 * The operators' audit log: append and read, nothing else. No update and no delete here on purpose
 * (the retention purge lives in retention-repository.ts and only removes what is past
 * SINO_AUDIT_RETENTION_DAYS).
 */
export interface AuditRepository {
  append(entry: NewAuditEntry): Promise<void>;
  /** Newest first. */
  list(filter: AuditFilter, offset: number, limit: number): Promise<{ entries: AuditEntryRecord[]; total: number }>;
  /** Every action code present in the log, sorted. */
  actions(): Promise<string[]>;
}

/** Longest user agent or name kept (a header can be long; the log stays small). */
const MAX_TEXT = 512;
const clip = (value: string | null): string | null => (value === null ? null : value.slice(0, MAX_TEXT));

export function createAuditRepository(database: DatabaseHandle): AuditRepository {
  const { db } = database;

  function filtered<O>(qb: SelectQueryBuilder<Schema, "audit_log", O>, filter: AuditFilter): SelectQueryBuilder<Schema, "audit_log", O> {
    let q = qb;
    if (filter.actorKind !== undefined) q = q.where("actor_kind", "=", filter.actorKind);
    if (filter.actorId !== undefined) q = q.where("actor_id", "=", filter.actorId);
    if (filter.action !== undefined) q = q.where("action", "=", filter.action);
    if (filter.from !== undefined) q = q.where("at", ">=", filter.from);
    if (filter.to !== undefined) q = q.where("at", "<", filter.to);
    return q;
  }

  return {
    async append(entry) {
      await db
        .insertInto("audit_log")
        .values({
          at: entry.at,
          actor_kind: entry.actorKind,
          actor_id: entry.actorId,
          actor_name: clip(entry.actorName),
          action: entry.action,
          target_id: clip(entry.targetId),
          status: entry.status,
          ip: clip(entry.ip),
          user_agent: clip(entry.userAgent),
          request_id: clip(entry.requestId),
        })
        .execute();
    },

    async list(filter, offset, limit) {
      const total = await filtered(db.selectFrom("audit_log").select((eb) => eb.fn.countAll<number | string>().as("n")), filter).executeTakeFirstOrThrow();
      const rows = await filtered(db.selectFrom("audit_log").selectAll(), filter).orderBy("at", "desc").orderBy("id", "desc").offset(offset).limit(limit).execute();
      return {
        total: toCount(total.n),
        entries: rows.map((r) => ({
          id: Number(r.id),
          at: Number(r.at),
          actorKind: r.actor_kind,
          actorId: r.actor_id === null ? null : Number(r.actor_id),
          actorName: r.actor_name,
          action: r.action,
          targetId: r.target_id,
          status: Number(r.status),
          ip: r.ip,
          userAgent: r.user_agent,
          requestId: r.request_id,
        })),
      };
    },

    async actions() {
      const rows = await db.selectFrom("audit_log").select("action").distinct().orderBy("action").execute();
      return rows.map((r) => r.action);
    },
  };
}
