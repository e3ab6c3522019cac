import { sql } from "kysely";
import { foldForSearch } from "../shared/text/search-fold.js";
import type { DatabaseHandle } from "./database.js";
import { toNotification, type Notification } from "./notifications-repository.js";
import type { NotificationStatus } from "./schema.js";

export interface NotificationHistoryQuery {
  /** Words searched in title and body, ignoring case and accents ("manutencao" finds "Manutenção"). */
  readonly query?: string;
  readonly status?: NotificationStatus;
  readonly offset: number;
  readonly limit: number;
}

/** Reading sends for people: the Painel's Histórico and Visão geral. */
export interface NotificationHistoryRepository {
  /** Newest first, with the total that matches (for the pages). */
  list(query: NotificationHistoryQuery): Promise<{ sends: Notification[]; total: number }>;
}

/** `%`, `_` and the escape itself match literally in a LIKE pattern. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function createNotificationHistoryRepository(database: DatabaseHandle): NotificationHistoryRepository {
  const { db } = database;
  return {
    async list({ query, status, offset, limit }) {
      const words = (query ?? "").trim().split(/\s+/).filter((w) => w !== "");
      let base = db.selectFrom("notifications");
      if (status !== undefined) base = base.where("status", "=", status);
      for (const word of words) {
        // Folded on both sides (search_text is written folded with the notification): neither database
        // folds accents, and SQLite's LIKE ignores ASCII case only, PostgreSQL's none. A row
        // written without search_text (by code that forgot it) is still found by its lowercased
        // title and body, accents then included.
        const folded = likePattern(foldForSearch(word));
        const lowered = likePattern(word.toLowerCase());
        base = base.where((eb) =>
          eb.or([
            eb("search_text", "like", sql<string>`${folded} escape '\\'`),
            eb.and([
              eb("search_text", "is", null),
              eb.or([
                eb(sql`lower(title)`, "like", sql`${lowered} escape '\\'`),
                eb(sql`lower(coalesce(body, ''))`, "like", sql`${lowered} escape '\\'`),
              ]),
            ]),
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
