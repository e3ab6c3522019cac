import type { Selectable } from "kysely";
import type { ChannelsTable } from "./schema.js";
import { toCount } from "./count.js";
import type { DatabaseHandle } from "./database.js";

export interface ChannelRecord {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
  readonly description: string | null;
  readonly isDefault: boolean;
  readonly archived: boolean;
  readonly createdAt: number;
  /** Subscriptions that chose it. */
  readonly subscribers: number;
}

export interface NewChannel {
  readonly slug: string;
  readonly name: string;
  readonly description: string | null;
  readonly isDefault: boolean;
}

export interface ChannelPatch {
  readonly name?: string;
  readonly description?: string | null;
  readonly isDefault?: boolean;
  readonly archived?: boolean;
}

export interface ChannelsRepository {
  /** Every channel, archived included, in slug order, with its subscriber count. */
  list(): Promise<ChannelRecord[]>;
  /** Active channels only (what the public sees and what a notification may target). */
  listActive(): Promise<ChannelRecord[]>;
  /** `slug_taken` when the slug exists (a unique constraint: safe under concurrent creates). */
  create(input: NewChannel, now: number): Promise<ChannelRecord | "slug_taken">;
  update(id: number, patch: ChannelPatch): Promise<ChannelRecord | undefined>;
  findById(id: number): Promise<ChannelRecord | undefined>;
  findBySlug(slug: string): Promise<ChannelRecord | undefined>;
}

export function createChannelsRepository(database: DatabaseHandle): ChannelsRepository {
  const { db } = database;
  function base() {
    return db
      .selectFrom("channels")
      .selectAll("channels")
      .select((eb) =>
        eb
          .selectFrom("subscription_channels")
          .select((e) => e.fn.countAll<number | string>().as("n"))
          .whereRef("subscription_channels.channel_id", "=", "channels.id")
          .as("subscribers"),
      );
  }

  async function list(): Promise<ChannelRecord[]> {
    return (await base().orderBy("slug").execute()).map(toChannel);
  }

  async function listActive(): Promise<ChannelRecord[]> {
    return (await base().where("archived", "=", 0).orderBy("slug").execute()).map(toChannel);
  }

  async function findById(id: number): Promise<ChannelRecord | undefined> {
    const row = await base().where("channels.id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : toChannel(row);
  }

  async function findBySlug(slug: string): Promise<ChannelRecord | undefined> {
    const row = await base().where("slug", "=", slug).executeTakeFirst();
    return row === undefined ? undefined : toChannel(row);
  }

  async function create(input: NewChannel, now: number): Promise<ChannelRecord | "slug_taken"> {
    const inserted = await db
      .insertInto("channels")
      .values({
        slug: input.slug,
        name: input.name,
        description: input.description,
        is_default: input.isDefault ? 1 : 0,
        created_at: now,
      })
      .onConflict((oc) => oc.column("slug").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted === undefined) return "slug_taken";
    return (await findById(Number(inserted.id)))!;
  }

  async function update(id: number, patch: ChannelPatch): Promise<ChannelRecord | undefined> {
    const set = {
      ...(patch.name === undefined ? {} : { name: patch.name }),
      ...(patch.description === undefined ? {} : { description: patch.description }),
      ...(patch.isDefault === undefined ? {} : { is_default: patch.isDefault ? 1 : 0 }),
      ...(patch.archived === undefined ? {} : { archived: patch.archived ? 1 : 0 }),
    };
    if (Object.keys(set).length > 0) {
      await db.updateTable("channels").set(set).where("id", "=", id).execute();
    }
    return findById(id);
  }

  return { list, listActive, create, update, findById, findBySlug };
}

type ChannelRow = Selectable<ChannelsTable> & { subscribers: number | string | null };

function toChannel(row: ChannelRow): ChannelRecord {
  return {
    id: Number(row.id),
    slug: row.slug,
    name: row.name,
    description: row.description,
    isDefault: Number(row.is_default) === 1,
    archived: Number(row.archived) === 1,
    createdAt: Number(row.created_at),
    subscribers: toCount(row.subscribers),
  };
}

