import type { Kysely, Selectable, Transaction } from "kysely";
import type { DatabaseHandle } from "./database.js";
import type { Schema, UsersTable } from "./schema.js";

export type UserRole = UsersTable["role"];

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: UserRole;
  passwordHash: string;
  createdAt: number;
  updatedAt: number;
  /** The password is temporary (an admin's reset): the user must choose a new one before anything else. */
  mustChangePassword: boolean;
}

export interface NewUser {
  name: string;
  /** Already normalised (trimmed, lowercase). */
  email: string;
  role: UserRole;
  passwordHash: string;
  /** Default false: the password is the user's own. */
  mustChangePassword?: boolean;
}

export interface UserChanges {
  name?: string;
  role?: UserRole;
  passwordHash?: string;
  mustChangePassword?: boolean;
}

export type CreateUserResult = { outcome: "created"; user: UserRecord } | { outcome: "email_taken" };
export type CreateFirstAdminResult = { outcome: "created"; user: UserRecord } | { outcome: "setup_already_done" };
export type UpdateUserResult = { outcome: "updated"; user: UserRecord } | { outcome: "not_found" } | { outcome: "last_admin" };
export type RemoveUserResult = "removed" | "not_found" | "last_admin";

export interface UsersRepository {
  count(): Promise<number>;
  list(): Promise<UserRecord[]>;
  findById(id: number): Promise<UserRecord | undefined>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  create(user: NewUser, now: number): Promise<CreateUserResult>;
  /** The one-time set-up: creates an admin only while no user exists, even under concurrent calls. */
  createFirstAdmin(user: Omit<NewUser, "role">, now: number): Promise<CreateFirstAdminResult>;
  /** Refuses to take the admin role from the last admin. */
  update(id: number, changes: UserChanges, now: number): Promise<UpdateUserResult>;
  /** Refuses to remove the last admin. The user's sessions go with them (foreign key cascade). */
  remove(id: number): Promise<RemoveUserResult>;
}

/** The settings key the first-admin set-up claims; its unique key decides a set-up race. */
export const FIRST_ADMIN_SETTING = "setup.first_admin";

class Rollback extends Error {}

export function createUsersRepository(database: DatabaseHandle): UsersRepository {
  const { db, dialect } = database;
  const postgres = dialect === "postgres";

  async function count(): Promise<number> {
    const row = await db.selectFrom("users").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function list(): Promise<UserRecord[]> {
    const rows = await db.selectFrom("users").selectAll().orderBy("id").execute();
    return rows.map(toUser);
  }

  async function findById(id: number): Promise<UserRecord | undefined> {
    const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : toUser(row);
  }

  async function findByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
    return row === undefined ? undefined : toUser(row);
  }

  async function insert(trx: Kysely<Schema>, user: NewUser, now: number): Promise<UserRecord | undefined> {
    // ON CONFLICT DO NOTHING: a taken email is an outcome, not an exception that would abort a
    // PostgreSQL transaction.
    const row = await trx
      .insertInto("users")
      .values({
        name: user.name,
        email: user.email,
        role: user.role,
        password_hash: user.passwordHash,
        must_change_password: user.mustChangePassword === true ? 1 : 0,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("email").doNothing())
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? undefined : toUser(row);
  }

  async function create(user: NewUser, now: number): Promise<CreateUserResult> {
    const created = await insert(db, user, now);
    return created === undefined ? { outcome: "email_taken" } : { outcome: "created", user: created };
  }

  async function createFirstAdmin(user: Omit<NewUser, "role">, now: number): Promise<CreateFirstAdminResult> {
    try {
      return await db.transaction().execute(async (trx) => {
        // Two concurrent set-ups both see zero users under READ COMMITTED; the unique settings
        // key does not: the second insert waits for the first transaction and then does nothing.
        const claimed = await trx
          .insertInto("settings")
          .values({ key: FIRST_ADMIN_SETTING, value: String(now) })
          .onConflict((oc) => oc.column("key").doNothing())
          .returning("key")
          .executeTakeFirst();
        if (claimed === undefined) return { outcome: "setup_already_done" } as const;
        // `sino admin create` may have made a user without claiming the set-up.
        const existing = await trx.selectFrom("users").select("id").limit(1).executeTakeFirst();
        if (existing !== undefined) throw new Rollback();
        const created = await insert(trx, { ...user, role: "admin" }, now);
        if (created === undefined) throw new Rollback();
        return { outcome: "created", user: created } as const;
      });
    } catch (error) {
      if (error instanceof Rollback) return { outcome: "setup_already_done" };
      throw error;
    }
  }

  /** Counts admins, locking their rows on PostgreSQL so two demotions cannot both pass the check. */
  async function adminCount(trx: Transaction<Schema>): Promise<number> {
    const rows = await trx
      .selectFrom("users")
      .select("id")
      .where("role", "=", "admin")
      .$if(postgres, (qb) => qb.forUpdate())
      .execute();
    return rows.length;
  }

  async function update(id: number, changes: UserChanges, now: number): Promise<UpdateUserResult> {
    return db.transaction().execute(async (trx): Promise<UpdateUserResult> => {
      const demoting = changes.role !== undefined && changes.role !== "admin";
      const admins = demoting ? await adminCount(trx) : 0;
      const current = await trx.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
      if (current === undefined) return { outcome: "not_found" };
      if (demoting && current.role === "admin" && admins <= 1) return { outcome: "last_admin" };
      const row = await trx
        .updateTable("users")
        .set({
          ...(changes.name === undefined ? {} : { name: changes.name }),
          ...(changes.role === undefined ? {} : { role: changes.role }),
          ...(changes.passwordHash === undefined ? {} : { password_hash: changes.passwordHash }),
          ...(changes.mustChangePassword === undefined ? {} : { must_change_password: changes.mustChangePassword ? 1 : 0 }),
          updated_at: now,
        })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { outcome: "updated", user: toUser(row) };
    });
  }

  async function remove(id: number): Promise<RemoveUserResult> {
    return db.transaction().execute(async (trx): Promise<RemoveUserResult> => {
      const admins = await adminCount(trx);
      const current = await trx.selectFrom("users").select("role").where("id", "=", id).executeTakeFirst();
      if (current === undefined) return "not_found";
      if (current.role === "admin" && admins <= 1) return "last_admin";
      await trx.deleteFrom("users").where("id", "=", id).execute();
      return "removed";
    });
  }

  return { count, list, findById, findByEmail, create, createFirstAdmin, update, remove };
}

function toUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: Number(row.id),
    name: row.name,
    email: row.email,
    role: row.role,
    passwordHash: row.password_hash,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    mustChangePassword: Number(row.must_change_password) === 1,
  };
}
