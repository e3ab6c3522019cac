import { sql } from "kysely";
import type { DatabaseHandle } from "./database.js";
import { toNotification, type Notification } from "./notifications-repository.js";
import type { NotificationStatus } from "./schema.js";

export interface SendHistoryQuery {
  /** Words searched in title and body, case-insensitively. */
  readonly query?: string;
  readonly status?: NotificationStatus;
  readonly offset: number;
  readonly limit: number;
}

/** Reading sends for people: the Painel's Histórico and Visão geral. */
export interface SendHistoryRepository {
  /** Newest first, with the total that matches (for the pages). */
  list(query: SendHistoryQuery): Promise<{ sends: Notification[]; total: number }>;
}

/** `%`, `_` and the escape itself match literally in a LIKE pattern. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createSendHistoryRepository(database: DatabaseHandle): SendHistoryRepository {
  const { db } = database;
  return {
    async list({ query, status, offset, limit }) {
      const words = (query ?? "").trim().split(/\s+/).filter((w) => w !== "");
      let base = db.selectFrom("notifications");
      if (status !== undefined) base = base.where("status", "=", status);
      for (const word of words) {
        const pattern = likePattern(word);
        // lower() on both sides: SQLite's LIKE ignores ASCII case only, PostgreSQL's LIKE none.
        base = base.where((eb) =>
          eb.or([
            eb(sql`lower(title)`, "like", sql`${pattern} escape '\\'`),
            eb(sql`lower(coalesce(body, ''))`, "like", sql`${pattern} escape '\\'`),
          ]),
        );
      }
      const [rows, count] = await Promise.all([
        base.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
        base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { sends: rows.map(toNotification), total: Number(count.n) };
    },
  };
}
