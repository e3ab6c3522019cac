import { sql, type ExpressionBuilder, type Expression, type SqlBool } from "kysely";
import { foldForSearch } from "../shared/text/search-fold.js";
import type { Schema } from "./schema.js";

/**
 * Subscriptions whose person id starts with `prefix`, ignoring case and accents: "joao" finds
 * "João.Silva" (compared on `person_key`, the id folded when it was written). The id as typed also
 * matches the id as stored, for a row whose `person_key` was never written. A prefix compared with
 * substr, not LIKE: no wildcard to escape, and the same on both databases; lengths in code points,
 * as both databases' substr count them.
 */
export function personIdStartsWith(eb: ExpressionBuilder<Schema, "subscriptions">, prefix: string): Expression<SqlBool> {
  const folded = foldForSearch(prefix);
  return eb.or([
    eb(sql<string>`substr(person_key, 1, ${sql.lit([...folded].length)})`, "=", folded),
    eb(sql<string>`substr(person_id, 1, ${sql.lit([...prefix].length)})`, "=", prefix),
  ]);
}
