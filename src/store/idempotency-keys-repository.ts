import type { DatabaseHandle } from "./database.js";
import { insertNotificationWithJobs, type CreateNotificationOptions, type NewNotification, type Notification } from "./notifications-repository.js";
import { writeTransaction } from "./write-transaction.js";

/** A key as first used: the request it came with and the answer it got. */
export interface StoredAnswer {
  readonly requestHash: string;
  readonly statusCode: number;
  /** The JSON body answered. */
  readonly response: string;
}

export interface KeyedRequest {
  /** Whose key: `user:<id>` or `token:<id>`. */
  readonly scope: string;
  readonly key: string;
  readonly requestHash: string;
  /** When the key is forgotten (and may be used again). */
  readonly expiresAt: number;
}

export type KeyedNotificationResult =
  | { readonly outcome: "created"; readonly send: Notification; readonly answer: StoredAnswer }
  | { readonly outcome: "existing"; readonly answer: StoredAnswer };

export interface IdempotencyKeysRepository {
  /**
   * Creates the notification unless this caller already used the key: the key row and the notification (with its
   * jobs) are written in ONE transaction, and the unique (scope, key) makes a concurrent second
   * request — in this process or another — wait for the first and then find its row. So a key
   * makes at most one notification, and a crash leaves either both or neither.
   */
  createNotificationOnce(
    keyed: KeyedRequest,
    input: NewNotification,
    options: CreateNotificationOptions,
    answer: (send: Notification) => { statusCode: number; response: string },
  ): Promise<KeyedNotificationResult>;
}

export function createIdempotencyKeysRepository(database: DatabaseHandle): IdempotencyKeysRepository {
  return {
    async createNotificationOnce(keyed, input, options, answer) {
      const now = options.now;
      return writeTransaction(database, async (trx) => {
        // Forgotten keys go (an indexed delete): an expired key may then be used afresh.
        await trx.deleteFrom("idempotency_keys").where("expires_at", "<=", now).execute();
        const claimed = await trx
          .insertInto("idempotency_keys")
          .values({
            scope: keyed.scope,
            key: keyed.key,
            request_hash: keyed.requestHash,
            notification_id: null,
            status_code: 0,
            response: "",
            created_at: now,
            expires_at: keyed.expiresAt,
          })
          .onConflict((oc) => oc.columns(["scope", "key"]).doNothing())
          .returning("id")
          .executeTakeFirst();
        if (claimed === undefined) {
          const row = await trx
            .selectFrom("idempotency_keys")
            .select(["request_hash", "status_code", "response"])
            .where("scope", "=", keyed.scope)
            .where("key", "=", keyed.key)
            .executeTakeFirstOrThrow();
          return {
            outcome: "existing",
            answer: { requestHash: row.request_hash, statusCode: Number(row.status_code), response: row.response },
          } as const;
        }
        const send = await insertNotificationWithJobs(trx, input, options);
        const given = answer(send);
        await trx
          .updateTable("idempotency_keys")
          .set({ notification_id: send.id, status_code: given.statusCode, response: given.response })
          .where("id", "=", Number(claimed.id))
          .execute();
        return { outcome: "created", send, answer: { requestHash: keyed.requestHash, ...given } } as const;
      });
    },
  };
}
