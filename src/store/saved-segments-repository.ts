import type { Selectable } from "kysely";
import type { SegmentNode, SegmentTagKinds } from "../shared/segments/tree.js";
import type { DatabaseHandle } from "./database.js";
import type { NotificationStatus, SegmentsTable } from "./schema.js";
import { writeTransaction } from "./write-transaction.js";

/** How many saved segments a server keeps (`too_many_segments`). */
export const MAX_SAVED_SEGMENTS = 500;

/** A segment's size on one day (the last measure of that UTC day). */
export interface SegmentSize {
  readonly subscriptions: number;
  readonly people: number;
  readonly measuredAt: number;
}

export interface SavedSegment {
  readonly id: number;
  readonly name: string;
  readonly description: string | null;
  readonly tree: SegmentNode;
  readonly tagKinds: SegmentTagKinds;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** The latest measure; null until the first. */
  readonly size: SegmentSize | null;
}

export interface NewSavedSegment {
  readonly name: string;
  readonly description: string | null;
  readonly tree: SegmentNode;
  readonly tagKinds: SegmentTagKinds;
}

export type SavedSegmentPatch = Partial<NewSavedSegment>;

export interface SegmentDaySize {
  /** UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  readonly subscriptions: number;
  readonly people: number;
}

/** A notification that used a saved segment, as its page lists them. */
export interface SegmentNotification {
  readonly id: number;
  readonly title: string;
  readonly status: NotificationStatus;
  readonly createdAt: number;
  readonly queued: number;
}

export interface SavedSegmentsRepository {
  /** Every saved segment, by name (case-insensitive), each with its latest size. */
  list(): Promise<SavedSegment[]>;
  findById(id: number): Promise<SavedSegment | undefined>;
  /**
   * `name_taken` when another segment has the name (case-insensitive, accents count), `too_many`
   * past MAX_SAVED_SEGMENTS.
   */
  create(input: NewSavedSegment, now: number): Promise<SavedSegment | "name_taken" | "too_many">;
  update(id: number, patch: SavedSegmentPatch, now: number): Promise<SavedSegment | "name_taken" | undefined>;
  /** `in_use` while a scheduled notification has it as its audience: that notification reads it when it goes out. */
  remove(id: number): Promise<"deleted" | "not_found" | "in_use">;
  /** Upserts the segment's size for `day` (the last measure of a day wins). */
  recordSize(id: number, day: string, size: SegmentSize): Promise<void>;
  /** Sizes from `sinceDay` on, oldest first. */
  history(id: number, sinceDay: string): Promise<SegmentDaySize[]>;
  /** Saved segments with no size measured on `day`, by id. */
  unmeasuredOn(day: string, limit: number): Promise<SavedSegment[]>;
  /** The latest sends that used the segment, newest first. */
  sends(id: number, limit: number): Promise<SegmentNotification[]>;
}

/** The UTC day of an instant, as segment_sizes keys it. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Names compare as a person reads them: `Clientes` and `clientes`, `Ônibus` and `ônibus` are one name. */
function nameKey(name: string): string {
  return name.toLocaleLowerCase("pt-BR");
}

/** A unique index refused the row (two creates raced past the name check on PostgreSQL). */
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || (typeof message === "string" && message.includes("UNIQUE constraint failed"));
}

export function createSavedSegmentsRepository(database: DatabaseHandle): SavedSegmentsRepository {
  const { db } = database;

  function base() {
    return db
      .selectFrom("segments")
      .selectAll("segments")
      .select((eb) => [
        eb.selectFrom("segment_sizes").select("segment_sizes.subscriptions").whereRef("segment_sizes.segment_id", "=", "segments.id").orderBy("segment_sizes.day", "desc").limit(1).as("size_subscriptions"),
        eb.selectFrom("segment_sizes").select("segment_sizes.people").whereRef("segment_sizes.segment_id", "=", "segments.id").orderBy("segment_sizes.day", "desc").limit(1).as("size_people"),
        eb.selectFrom("segment_sizes").select("segment_sizes.measured_at").whereRef("segment_sizes.segment_id", "=", "segments.id").orderBy("segment_sizes.day", "desc").limit(1).as("size_measured_at"),
      ]);
  }

  async function list(): Promise<SavedSegment[]> {
    return (await base().execute()).map(toSavedSegment).sort((a, b) => nameKey(a.name).localeCompare(nameKey(b.name), "pt-BR") || a.id - b.id);
  }

  async function findById(id: number): Promise<SavedSegment | undefined> {
    const row = await base().where("segments.id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : toSavedSegment(row);
  }

  /** Whether another segment holds the name; read inside the write transaction that then writes it. */
  async function nameTaken(trx: DatabaseHandle["db"], name: string, exceptId: number | null): Promise<boolean> {
    const rows = await trx.selectFrom("segments").select(["id", "name"]).execute();
    return rows.some((row) => Number(row.id) !== exceptId && nameKey(row.name) === nameKey(name));
  }

  async function create(input: NewSavedSegment, now: number): Promise<SavedSegment | "name_taken" | "too_many"> {
    try {
      const id = await writeTransaction(database, async (trx) => {
        const count = await trx.selectFrom("segments").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
        if (Number(count.n) >= MAX_SAVED_SEGMENTS) return "too_many" as const;
        if (await nameTaken(trx, input.name, null)) return "name_taken" as const;
        const row = await trx
          .insertInto("segments")
          .values({ name: input.name, description: input.description, expression: JSON.stringify(input.tree), tag_kinds: input.tagKinds, created_at: now, updated_at: now })
          .returning("id")
          .executeTakeFirstOrThrow();
        return Number(row.id);
      });
      return typeof id === "number" ? (await findById(id))! : id;
    } catch (error) {
      if (isUniqueViolation(error)) return "name_taken";
      throw error;
    }
  }

  async function update(id: number, patch: SavedSegmentPatch, now: number): Promise<SavedSegment | "name_taken" | undefined> {
    try {
      const outcome = await writeTransaction(database, async (trx) => {
        const existing = await trx.selectFrom("segments").select("id").where("id", "=", id).executeTakeFirst();
        if (existing === undefined) return "not_found" as const;
        if (patch.name !== undefined && (await nameTaken(trx, patch.name, id))) return "name_taken" as const;
        await trx
          .updateTable("segments")
          .set({
            ...(patch.name === undefined ? {} : { name: patch.name }),
            ...(patch.description === undefined ? {} : { description: patch.description }),
            ...(patch.tree === undefined ? {} : { expression: JSON.stringify(patch.tree) }),
            ...(patch.tagKinds === undefined ? {} : { tag_kinds: patch.tagKinds }),
            updated_at: now,
          })
          .where("id", "=", id)
          .execute();
        return "updated" as const;
      });
      if (outcome === "not_found") return undefined;
      if (outcome === "name_taken") return outcome;
      return findById(id);
    } catch (error) {
      if (isUniqueViolation(error)) return "name_taken";
      throw error;
    }
  }

  async function remove(id: number): Promise<"deleted" | "not_found" | "in_use"> {
    return writeTransaction(database, async (trx) => {
      // A scheduled notification reads its saved segment when it goes out: while one waits, the segment stays.
      const waiting = await trx.selectFrom("notifications").select("id").where("segment_id", "=", id).where("status", "=", "scheduled").limit(1).executeTakeFirst();
      if (waiting !== undefined) return "in_use";
      await trx.deleteFrom("segment_sizes").where("segment_id", "=", id).execute();
      const deleted = await trx.deleteFrom("segments").where("id", "=", id).executeTakeFirst();
      return deleted.numDeletedRows === 0n ? "not_found" : "deleted";
    });
  }

  async function recordSize(id: number, day: string, size: SegmentSize): Promise<void> {
    const values = { subscriptions: size.subscriptions, people: size.people, measured_at: size.measuredAt };
    await db
      .insertInto("segment_sizes")
      .values({ segment_id: id, day, ...values })
      .onConflict((oc) => oc.columns(["segment_id", "day"]).doUpdateSet(values))
      .execute();
  }

  async function history(id: number, sinceDay: string): Promise<SegmentDaySize[]> {
    const rows = await db
      .selectFrom("segment_sizes")
      .select(["day", "subscriptions", "people"])
      .where("segment_id", "=", id)
      .where("day", ">=", sinceDay)
      .orderBy("day")
      .execute();
    return rows.map((row) => ({ day: row.day, subscriptions: Number(row.subscriptions), people: Number(row.people) }));
  }

  async function unmeasuredOn(day: string, limit: number): Promise<SavedSegment[]> {
    const rows = await base()
      .where((eb) => eb.not(eb.exists(eb.selectFrom("segment_sizes").select("segment_sizes.segment_id").whereRef("segment_sizes.segment_id", "=", "segments.id").where("segment_sizes.day", "=", day))))
      .orderBy("segments.id")
      .limit(limit)
      .execute();
    return rows.map(toSavedSegment);
  }

  async function sends(id: number, limit: number): Promise<SegmentNotification[]> {
    const rows = await db
      .selectFrom("notifications")
      .select(["id", "title", "status", "created_at", "queued"])
      .where("segment_id", "=", id)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map((row) => ({ id: Number(row.id), title: row.title, status: row.status, createdAt: Number(row.created_at), queued: Number(row.queued) }));
  }

  return { list, findById, create, update, remove, recordSize, history, unmeasuredOn, sends };
}

type SegmentRow = Selectable<SegmentsTable> & {
  size_subscriptions: number | string | null;
  size_people: number | string | null;
  size_measured_at: number | string | null;
};

function toSavedSegment(row: SegmentRow): SavedSegment {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    tree: JSON.parse(row.expression) as SegmentNode,
    tagKinds: row.tag_kinds,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    size:
      row.size_measured_at === null
        ? null
        : { subscriptions: Number(row.size_subscriptions), people: Number(row.size_people), measuredAt: Number(row.size_measured_at) },
  };
}
