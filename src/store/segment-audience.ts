import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import { formatSegment } from "../shared/segments/format.js";
import type { SegmentNode, SegmentTagKinds } from "../shared/segments/tree.js";
import type { Schema } from "./schema.js";
import { resolveChannelIds, segmentFilter } from "./segment-sql.js";

/**
 * A `segment` notification's audience as stored in its JSON: a saved segment (`segmentId`, read when the
 * send starts) or an expression written for this notification. `tree`, `text`, `at` and `channelIds` are
 * filled when the notification starts (at once, or by `startDue` for a scheduled notification), when the
 * subscriptions it matches are stored as the notification's notification_targets rows: the count and the
 * rows the workers walk are those rows. The JSON records the expression they were taken with: the
 * same "now" for relative times (`há menos de 7 dias`), the same channel ids.
 */
export interface SegmentAudience {
  readonly kind: "segment";
  readonly segmentId: number | null;
  /** The saved segment's name when the notification started (or was scheduled). */
  readonly name: string | null;
  /** Null for a saved segment until the notification starts, and if the segment was gone by then. */
  readonly tree: SegmentNode | null;
  /** The canonical text of `tree`. */
  readonly text: string | null;
  readonly tagKinds: SegmentTagKinds;
  /** When the expression was resolved: the "now" of its relative times. */
  readonly at: number | null;
  /** The channel slugs of the expression, resolved once to ids; an unknown slug is absent (its condition is false). */
  readonly channelIds?: Readonly<Record<string, number>>;
  readonly sites?: readonly number[];
}

/**
 * The audience as the notification goes out with it: a saved segment's expression and tag kinds read now,
 * the channel ids resolved now, `at` = now. A saved segment deleted meanwhile (deletion is refused
 * while a scheduled notification uses it, so only a race) leaves `tree` null: the notification reaches no one.
 */
export async function resolveSegmentAudience(db: Kysely<Schema>, audience: SegmentAudience, now: number): Promise<SegmentAudience> {
  let { tree, name, tagKinds } = audience;
  if (audience.segmentId !== null) {
    const row = await db.selectFrom("segments").select(["name", "expression", "tag_kinds"]).where("id", "=", audience.segmentId).executeTakeFirst();
    tree = row === undefined ? null : (JSON.parse(row.expression) as SegmentNode);
    name = row?.name ?? name;
    tagKinds = row?.tag_kinds ?? tagKinds;
  }
  const channelIds = tree === null ? new Map<string, number>() : await resolveChannelIds(db, tree);
  return {
    ...audience,
    name,
    tree,
    text: tree === null ? null : formatSegment(tree),
    tagKinds,
    at: now,
    channelIds: Object.fromEntries(channelIds),
  };
}

/**
 * The subscriptions a resolved segment audience holds (none when it has no expression): what a
 * send takes as its notification_targets rows when it starts, and counts before sending.
 */
export function inSegmentAudience(audience: SegmentAudience) {
  const { tree } = audience;
  return (eb: ExpressionBuilder<Schema, "subscriptions">): Expression<SqlBool> => {
    if (tree === null) return sql<SqlBool>`1 = 0`;
    const channelIds = new Map(Object.entries(audience.channelIds ?? {}));
    return segmentFilter(tree, { tagKinds: audience.tagKinds, now: audience.at ?? Date.now(), channelIds })(eb);
  };
}
