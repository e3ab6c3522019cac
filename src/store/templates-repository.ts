import type { Selectable } from "kysely";
import type { TemplateAudience } from "../shared/api/templates.js";
import type { DatabaseHandle } from "./database.js";
import type { TemplatesTable } from "./schema.js";
import type { PayloadAction } from "../shared/api/notification-payload.js";
import { fullNotificationOf } from "./notifications-repository.js";
import { writeTransaction } from "./write-transaction.js";

/** How many templates a server keeps (`too_many_templates`). */
export const MAX_TEMPLATES = 500;

/** What a template holds besides its name: a notification's content, and the audience it proposes (null: none). */
export interface TemplateContent {
  readonly title: string;
  readonly body: string | null;
  readonly url: string | null;
  readonly icon: string | null;
  readonly image: string | null;
  readonly urgency: string;
  readonly ttlSeconds: number;
  readonly collapseKey: string | null;
  readonly audience: TemplateAudience | null;
  /** The full notification (issue 19); absent: none, false. */
  readonly actions?: readonly PayloadAction[];
  readonly renotify?: boolean;
  readonly requireInteraction?: boolean;
  readonly silent?: boolean;
  readonly badge?: string | null;
  readonly appBadge?: number | null;
  /** The site's JSON value; null: none. */
  readonly data?: unknown;
}

export interface NewTemplate extends TemplateContent {
  readonly name: string;
}

export interface Template extends NewTemplate {
  readonly actions: readonly PayloadAction[];
  readonly renotify: boolean;
  readonly requireInteraction: boolean;
  readonly silent: boolean;
  readonly badge: string | null;
  readonly appBadge: number | null;
  readonly data: unknown;
  readonly id: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type TemplatePatch = Partial<NewTemplate>;

export interface TemplatesRepository {
  /** Every template, by name as a person reads it (case and accents folded for the order). */
  list(): Promise<Template[]>;
  findById(id: number): Promise<Template | undefined>;
  /** By name, ignoring case (`sino send --template promoção`). */
  findByName(name: string): Promise<Template | undefined>;
  /** `name_taken` when another template has the name (any case), `too_many` past MAX_TEMPLATES. */
  create(input: NewTemplate, now: number): Promise<Template | "name_taken" | "too_many">;
  update(id: number, patch: TemplatePatch, now: number): Promise<Template | "name_taken" | undefined>;
  remove(id: number): Promise<boolean>;
}

/** `Promoção` and `PROMOÇÃO` are one name; the unique index on lower(name) backs this up. */
function nameKey(name: string): string {
  return name.toLocaleLowerCase("pt-BR");
}

/** A unique index refused the row (two creates raced past the name check on PostgreSQL). */
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || (typeof message === "string" && message.includes("UNIQUE constraint failed"));
}

function columnsOf(patch: TemplatePatch): Partial<Omit<Selectable<TemplatesTable>, "id" | "created_at" | "updated_at">> {
  return {
    ...(patch.actions === undefined ? {} : { actions: patch.actions.length === 0 ? null : JSON.stringify(patch.actions.map(({ label, url }) => ({ label, url }))) }),
    ...(patch.renotify === undefined ? {} : { renotify: patch.renotify ? 1 : 0 }),
    ...(patch.requireInteraction === undefined ? {} : { require_interaction: patch.requireInteraction ? 1 : 0 }),
    ...(patch.silent === undefined ? {} : { silent: patch.silent ? 1 : 0 }),
    ...(patch.badge === undefined ? {} : { badge: patch.badge }),
    ...(patch.appBadge === undefined ? {} : { app_badge: patch.appBadge }),
    ...(patch.data === undefined ? {} : { data: patch.data === null ? null : JSON.stringify(patch.data) }),
    ...(patch.name === undefined ? {} : { name: patch.name }),
    ...(patch.title === undefined ? {} : { title: patch.title }),
    ...(patch.body === undefined ? {} : { body: patch.body }),
    ...(patch.url === undefined ? {} : { url: patch.url }),
    ...(patch.icon === undefined ? {} : { icon: patch.icon }),
    ...(patch.image === undefined ? {} : { image: patch.image }),
    ...(patch.urgency === undefined ? {} : { urgency: patch.urgency }),
    ...(patch.ttlSeconds === undefined ? {} : { ttl_seconds: patch.ttlSeconds }),
    ...(patch.collapseKey === undefined ? {} : { collapse_key: patch.collapseKey }),
    ...(patch.audience === undefined ? {} : { audience: patch.audience === null ? null : JSON.stringify(patch.audience) }),
  };
}

export function createTemplatesRepository(database: DatabaseHandle): TemplatesRepository {
  const { db } = database;

  async function list(): Promise<Template[]> {
    const rows = await db.selectFrom("templates").selectAll().execute();
    return rows.map(toTemplate).sort((a, b) => nameKey(a.name).localeCompare(nameKey(b.name), "pt-BR") || a.id - b.id);
  }

  async function findById(id: number): Promise<Template | undefined> {
    const row = await db.selectFrom("templates").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : toTemplate(row);
  }

  async function findByName(name: string): Promise<Template | undefined> {
    return (await list()).find((template) => nameKey(template.name) === nameKey(name.trim()));
  }

  async function nameTaken(trx: DatabaseHandle["db"], name: string, exceptId: number | null): Promise<boolean> {
    const rows = await trx.selectFrom("templates").select(["id", "name"]).execute();
    return rows.some((row) => Number(row.id) !== exceptId && nameKey(row.name) === nameKey(name));
  }

  async function create(input: NewTemplate, now: number): Promise<Template | "name_taken" | "too_many"> {
    try {
      const id = await writeTransaction(database, async (trx) => {
        const count = await trx.selectFrom("templates").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
        if (Number(count.n) >= MAX_TEMPLATES) return "too_many" as const;
        if (await nameTaken(trx, input.name, null)) return "name_taken" as const;
        const row = await trx
          .insertInto("templates")
          .values({
            name: input.name,
            title: input.title,
            body: input.body,
            url: input.url,
            icon: input.icon,
            image: input.image,
            urgency: input.urgency,
            ttl_seconds: input.ttlSeconds,
            collapse_key: input.collapseKey,
            audience: input.audience === null ? null : JSON.stringify(input.audience),
            ...columnsOf({ actions: input.actions ?? [], renotify: input.renotify ?? false, requireInteraction: input.requireInteraction ?? false, silent: input.silent ?? false, badge: input.badge ?? null, appBadge: input.appBadge ?? null, data: input.data ?? null }),
            created_at: now,
            updated_at: now,
          })
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

  async function update(id: number, patch: TemplatePatch, now: number): Promise<Template | "name_taken" | undefined> {
    try {
      const outcome = await writeTransaction(database, async (trx) => {
        const existing = await trx.selectFrom("templates").select("id").where("id", "=", id).executeTakeFirst();
        if (existing === undefined) return "not_found" as const;
        if (patch.name !== undefined && (await nameTaken(trx, patch.name, id))) return "name_taken" as const;
        await trx
          .updateTable("templates")
          .set({ ...columnsOf(patch), updated_at: now })
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

  async function remove(id: number): Promise<boolean> {
    const deleted = await db.deleteFrom("templates").where("id", "=", id).executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }

  return { list, findById, findByName, create, update, remove };
}

function toTemplate(row: Selectable<TemplatesTable>): Template {
  return {
    id: Number(row.id),
    name: row.name,
    title: row.title,
    body: row.body,
    url: row.url,
    icon: row.icon,
    image: row.image,
    urgency: row.urgency,
    ttlSeconds: Number(row.ttl_seconds),
    collapseKey: row.collapse_key,
    audience: row.audience === null ? null : (JSON.parse(row.audience) as TemplateAudience),
    ...fullNotificationOf(row),
    badge: row.badge,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
