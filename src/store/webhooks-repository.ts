import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { WebhookEventType } from "../shared/api/webhook-events.js";
import { toCount } from "./count.js";
import type { DatabaseHandle } from "./database.js";
import type { Schema, WebhookMessageStatus } from "./schema.js";
import { writeTransaction } from "./write-transaction.js";

export interface WebhookRecord {
  readonly id: number;
  readonly url: string;
  readonly description: string | null;
  readonly events: readonly WebhookEventType[];
  readonly enabled: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What the dispatcher needs to send: never presented by the API. */
export interface WebhookTarget {
  readonly id: number;
  readonly url: string;
  readonly secret: string;
}

export interface NewWebhook {
  readonly url: string;
  readonly description: string | null;
  readonly events: readonly WebhookEventType[];
  readonly secret: string;
}

export interface WebhookChanges {
  readonly url?: string;
  readonly description?: string | null;
  readonly events?: readonly WebhookEventType[];
  readonly enabled?: boolean;
}

export interface WebhookMessageRecord {
  readonly id: number;
  readonly webhookId: number;
  /** The `webhook-id` header. */
  readonly messageId: string;
  readonly eventType: string;
  readonly status: WebhookMessageStatus;
  readonly attempts: number;
  readonly notBefore: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly deliveredAt: number | null;
}

/** A due message held by one dispatcher under a lease, with what sending it takes. */
export interface ClaimedWebhookMessage {
  readonly id: number;
  readonly messageId: string;
  readonly payload: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly webhook: WebhookTarget;
}

export type WebhookAttemptOutcome =
  | { readonly kind: "delivered"; readonly status: number }
  | { readonly kind: "retry"; readonly status: number | null; readonly error: string; readonly notBefore: number }
  | { readonly kind: "failed"; readonly status: number | null; readonly error: string };

export interface WebhookLease {
  readonly owner: string;
  readonly now: number;
  readonly leaseMs: number;
}

export interface WebhookClaimOptions {
  readonly limit: number;
  /** Webhooks whose in-flight cap is reached in this process: none of theirs is claimed. */
  readonly excludeWebhooks: readonly number[];
  /** Only messages queued before this instant (epoch ms): younger ones wait for a later claim. */
  readonly createdBefore?: number;
}

export interface WebhooksRepository {
  /** Undefined when `max` webhooks exist already. */
  create(webhook: NewWebhook, now: number, max: number): Promise<WebhookRecord | undefined>;
  /** Oldest first. */
  list(): Promise<WebhookRecord[]>;
  findById(id: number): Promise<WebhookRecord | undefined>;
  update(id: number, changes: WebhookChanges, now: number): Promise<WebhookRecord | undefined>;
  /** Its messages go with it (ON DELETE CASCADE). */
  remove(id: number): Promise<boolean>;
  rotateSecret(id: number, secret: string, now: number): Promise<WebhookRecord | undefined>;
  /** Turns a webhook off (the receiver answered 410 Gone); its pending messages wait. */
  disable(id: number, now: number): Promise<void>;
  /** Queues one message for one webhook whatever its events (the test ping). */
  enqueueOne(webhookId: number, type: WebhookEventType, data: Readonly<Record<string, unknown>>, now: number): Promise<WebhookMessageRecord>;
  /** Leases pending messages that are due, of enabled webhooks, oldest due first. */
  claimDue(lease: WebhookLease, options: WebhookClaimOptions): Promise<ClaimedWebhookMessage[]>;
  /** Gives claimed messages back unsent (over the per-webhook cap, or a graceful stop). */
  release(owner: string, ids: readonly number[]): Promise<void>;
  /** Records one attempt; false (nothing changed) when the lease is no longer ours. */
  settle(lease: WebhookLease, messageId: number, outcome: WebhookAttemptOutcome): Promise<boolean>;
  /**
   * Records many attempts in one transaction (one commit instead of one per message: on SQLite
   * each commit is a disk sync, and the push checkpoints wait for the same write lock). Returns
   * the ids whose lease was no longer ours.
   */
  settleMany(lease: WebhookLease, settled: ReadonlyArray<{ readonly id: number; readonly outcome: WebhookAttemptOutcome }>): Promise<number[]>;
  /** Newest first. */
  listMessages(webhookId: number, page: number, pageSize: number): Promise<{ messages: WebhookMessageRecord[]; total: number }>;
  /** A delivered or failed message becomes pending again, due now, with its attempts reset; a pending one is due now. */
  resend(webhookId: number, messageId: string, now: number): Promise<WebhookMessageRecord | undefined>;
  /** Deletes up to `limit` messages delivered before `before`; returns how many. */
  pruneDelivered(before: number, limit: number): Promise<number>;
}

const ERROR_MAX_LENGTH = 500;

export function createWebhooksRepository(database: DatabaseHandle): WebhooksRepository {
  const { db, dialect } = database;
  const postgres = dialect === "postgres";

  type HookRow = { id: number | string; url: string; description: string | null; events: string; enabled: number; created_at: number | string; updated_at: number | string };
  function toWebhook(row: HookRow): WebhookRecord {
    return {
      id: Number(row.id),
      url: row.url,
      description: row.description,
      events: JSON.parse(row.events) as WebhookEventType[],
      enabled: Number(row.enabled) === 1,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
  }
  const hookColumns = ["id", "url", "description", "events", "enabled", "created_at", "updated_at"] as const;

  type MessageRow = {
    id: number | string;
    webhook_id: number | string;
    message_id: string;
    event_type: string;
    status: WebhookMessageStatus;
    attempts: number | string;
    not_before: number | string;
    last_status: number | null;
    last_error: string | null;
    created_at: number | string;
    delivered_at: number | string | null;
  };
  function toMessage(row: MessageRow): WebhookMessageRecord {
    return {
      id: Number(row.id),
      webhookId: Number(row.webhook_id),
      messageId: row.message_id,
      eventType: row.event_type,
      status: row.status,
      attempts: Number(row.attempts),
      notBefore: Number(row.not_before),
      lastStatus: row.last_status === null ? null : Number(row.last_status),
      lastError: row.last_error,
      createdAt: Number(row.created_at),
      deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
    };
  }
  const messageColumns = [
    "id",
    "webhook_id",
    "message_id",
    "event_type",
    "status",
    "attempts",
    "not_before",
    "last_status",
    "last_error",
    "created_at",
    "delivered_at",
  ] as const;

  async function findIn(trx: Kysely<Schema>, id: number): Promise<WebhookRecord | undefined> {
    const row = await trx.selectFrom("webhooks").select(hookColumns).where("id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : toWebhook(row);
  }

  async function settleIn(trx: Kysely<Schema>, lease: WebhookLease, id: number, outcome: WebhookAttemptOutcome): Promise<boolean> {
    const error = outcome.kind === "delivered" ? null : outcome.error.slice(0, ERROR_MAX_LENGTH);
    const result = await trx
      .updateTable("webhook_messages")
      .set((eb) => ({
        attempts: eb("attempts", "+", 1),
        last_status: outcome.status,
        last_error: error,
        lease_owner: null,
        lease_until: 0,
        ...(outcome.kind === "delivered"
          ? { status: "delivered" as const, delivered_at: lease.now }
          : outcome.kind === "retry"
            ? { not_before: outcome.notBefore }
            : { status: "failed" as const }),
      }))
      .where("id", "=", id)
      .where("lease_owner", "=", lease.owner)
      .where("status", "=", "pending")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  return {
    create: (webhook, now, max) =>
      writeTransaction(database, async (trx) => {
        // On PostgreSQL two admins creating the last allowed webhook at the same moment could both
        // pass this count (READ COMMITTED, no row to lock): one over the cap is harmless, since the
        // cap bounds the fan-out of each event, not a quota anyone pays for.
        const { n } = await trx.selectFrom("webhooks").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
        if (toCount(n) >= max) return undefined;
        const { id } = await trx
          .insertInto("webhooks")
          .values({
            url: webhook.url,
            description: webhook.description,
            events: JSON.stringify(webhook.events),
            secret: webhook.secret,
            enabled: 1,
            created_at: now,
            updated_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        return findIn(trx, Number(id));
      }),

    async list() {
      const rows = await db.selectFrom("webhooks").select(hookColumns).orderBy("id").execute();
      return rows.map(toWebhook);
    },

    findById: (id) => findIn(db, id),

    async update(id, changes, now) {
      const result = await db
        .updateTable("webhooks")
        .set({
          ...(changes.url === undefined ? {} : { url: changes.url }),
          ...(changes.description === undefined ? {} : { description: changes.description }),
          ...(changes.events === undefined ? {} : { events: JSON.stringify(changes.events) }),
          ...(changes.enabled === undefined ? {} : { enabled: changes.enabled ? 1 : 0 }),
          updated_at: now,
        })
        .where("id", "=", id)
        .executeTakeFirst();
      return result.numUpdatedRows === 0n ? undefined : findIn(db, id);
    },

    async remove(id) {
      // SQLite enforces ON DELETE CASCADE only with foreign_keys on: delete the messages first either way.
      return writeTransaction(database, async (trx) => {
        await trx.deleteFrom("webhook_messages").where("webhook_id", "=", id).execute();
        const result = await trx.deleteFrom("webhooks").where("id", "=", id).executeTakeFirst();
        return result.numDeletedRows > 0n;
      });
    },

    async rotateSecret(id, secret, now) {
      const result = await db.updateTable("webhooks").set({ secret, updated_at: now }).where("id", "=", id).executeTakeFirst();
      return result.numUpdatedRows === 0n ? undefined : findIn(db, id);
    },

    async disable(id, now) {
      await db.updateTable("webhooks").set({ enabled: 0, updated_at: now }).where("id", "=", id).execute();
    },

    async enqueueOne(webhookId, type, data, now) {
      const row = await db
        .insertInto("webhook_messages")
        .values({
          webhook_id: webhookId,
          message_id: `msg_${randomBytes(16).toString("base64url")}`,
          event_type: type,
          payload: JSON.stringify({ type, timestamp: new Date(now).toISOString(), data }),
          not_before: now,
          created_at: now,
        })
        .returning(messageColumns)
        .executeTakeFirstOrThrow();
      return toMessage(row);
    },

    async claimDue(lease, { limit, excludeWebhooks, createdBefore }) {
      if (limit <= 0) return [];
      // PostgreSQL: SKIP LOCKED lets several dispatchers claim at once, each a different set of
      // rows, as delivery-queue-repository's claimRetries does. SQLite has one writer at a time.
      const rows = await db
        .updateTable("webhook_messages")
        .set({ lease_owner: lease.owner, lease_until: lease.now + lease.leaseMs })
        .where("id", "in", (eb) =>
          eb
            .selectFrom("webhook_messages")
            .select("id")
            .where("status", "=", "pending")
            .where("not_before", "<=", lease.now)
            .where("lease_until", "<=", lease.now)
            .where("webhook_id", "in", (sub) => sub.selectFrom("webhooks").select("id").where("enabled", "=", 1))
            .$if(excludeWebhooks.length > 0, (qb) => qb.where("webhook_id", "not in", [...excludeWebhooks]))
            .$if(createdBefore !== undefined, (qb) => qb.where("created_at", "<", createdBefore!))
            .orderBy("not_before")
            .orderBy("id")
            .limit(limit)
            .$if(postgres, (qb) => qb.forUpdate().skipLocked()),
        )
        .returning(["id", "webhook_id", "message_id", "payload", "attempts"])
        .execute();
      if (rows.length === 0) return [];
      const hookIds = [...new Set(rows.map((r) => Number(r.webhook_id)))];
      const hooks = await db.selectFrom("webhooks").select(["id", "url", "secret"]).where("id", "in", hookIds).execute();
      const byId = new Map(hooks.map((h) => [Number(h.id), { id: Number(h.id), url: h.url, secret: h.secret }]));
      const claimed: ClaimedWebhookMessage[] = [];
      for (const r of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
        const webhook = byId.get(Number(r.webhook_id));
        if (webhook === undefined) continue; // deleted meanwhile: its messages went with it
        claimed.push({ id: Number(r.id), messageId: r.message_id, payload: r.payload, attempts: Number(r.attempts), webhook });
      }
      return claimed;
    },

    async release(owner, ids) {
      if (ids.length === 0) return;
      await db
        .updateTable("webhook_messages")
        .set({ lease_owner: null, lease_until: 0 })
        .where("id", "in", [...ids])
        .where("lease_owner", "=", owner)
        .execute();
    },

    settle: async (lease, id, outcome) => (await settleIn(db, lease, id, outcome)),

    async settleMany(lease, settled) {
      if (settled.length === 0) return [];
      return writeTransaction(database, async (trx) => {
        const lost: number[] = [];
        for (const { id, outcome } of settled) if (!(await settleIn(trx, lease, id, outcome))) lost.push(id);
        return lost;
      });
    },

    async listMessages(webhookId, page, pageSize) {
      const [rows, count] = await Promise.all([
        db
          .selectFrom("webhook_messages")
          .select(messageColumns)
          .where("webhook_id", "=", webhookId)
          .orderBy("id", "desc")
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
        db
          .selectFrom("webhook_messages")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where("webhook_id", "=", webhookId)
          .executeTakeFirstOrThrow(),
      ]);
      return { messages: rows.map(toMessage), total: toCount(count.n) };
    },

    async resend(webhookId, messageId, now) {
      const row = await db
        .updateTable("webhook_messages")
        .set((eb) => ({
          status: "pending" as const,
          not_before: now,
          attempts: eb.case().when("status", "=", "pending").then(eb.ref("attempts")).else(0).end(),
          delivered_at: null,
        }))
        .where("webhook_id", "=", webhookId)
        .where("message_id", "=", messageId)
        .returning(messageColumns)
        .executeTakeFirst();
      return row === undefined ? undefined : toMessage(row);
    },

    async pruneDelivered(before, limit) {
      const result = await db
        .deleteFrom("webhook_messages")
        .where("id", "in", (eb) =>
          eb.selectFrom("webhook_messages").select("id").where("status", "=", "delivered").where("delivered_at", "<", before).orderBy("id").limit(limit),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

  };
}
