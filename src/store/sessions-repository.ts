import type { UserRecord, UserRole } from "./users-repository.js";
import type { DatabaseHandle } from "./database.js";

export interface SessionRecord {
  idHash: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
  refreshedAt: number;
}

export interface ActiveSession {
  session: SessionRecord;
  user: UserRecord;
}

export interface SessionsRepository {
  create(session: SessionRecord): Promise<void>;
  /** The session and its user, unless it does not exist or has expired at `now`. */
  findActive(idHash: string, now: number): Promise<ActiveSession | undefined>;
  /** Sliding expiry: moves `expiresAt` forward. */
  refresh(idHash: string, expiresAt: number, now: number): Promise<void>;
  remove(idHash: string): Promise<void>;
  /** Ends every session of a user, but `exceptIdHash` (the one changing its own password). */
  removeForUser(userId: number, exceptIdHash?: string): Promise<void>;
  removeExpired(now: number): Promise<number>;
}

export function createSessionsRepository(database: DatabaseHandle): SessionsRepository {
  const { db } = database;
  return {
    async create(session) {
      await db
        .insertInto("sessions")
        .values({
          id_hash: session.idHash,
          user_id: session.userId,
          created_at: session.createdAt,
          expires_at: session.expiresAt,
          refreshed_at: session.refreshedAt,
        })
        .execute();
    },

    async findActive(idHash, now) {
      const row = await db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .select([
          "sessions.id_hash",
          "sessions.user_id",
          "sessions.created_at as session_created_at",
          "sessions.expires_at",
          "sessions.refreshed_at",
          "users.name",
          "users.email",
          "users.role",
          "users.password_hash",
          "users.created_at",
          "users.updated_at",
          "users.must_change_password",
        ])
        .where("sessions.id_hash", "=", idHash)
        .where("sessions.expires_at", ">", now)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const userId = Number(row.user_id);
      return {
        session: {
          idHash: row.id_hash,
          userId,
          createdAt: Number(row.session_created_at),
          expiresAt: Number(row.expires_at),
          refreshedAt: Number(row.refreshed_at),
        },
        user: {
          id: userId,
          name: row.name,
          email: row.email,
          role: row.role as UserRole,
          passwordHash: row.password_hash,
          createdAt: Number(row.created_at),
          updatedAt: Number(row.updated_at),
          mustChangePassword: Number(row.must_change_password) === 1,
        },
      };
    },

    async refresh(idHash, expiresAt, now) {
      await db.updateTable("sessions").set({ expires_at: expiresAt, refreshed_at: now }).where("id_hash", "=", idHash).execute();
    },

    async remove(idHash) {
      await db.deleteFrom("sessions").where("id_hash", "=", idHash).execute();
    },

    async removeForUser(userId, exceptIdHash) {
      await db
        .deleteFrom("sessions")
        .where("user_id", "=", userId)
        .$if(exceptIdHash !== undefined, (qb) => qb.where("id_hash", "!=", exceptIdHash!))
        .execute();
    },

    async removeExpired(now) {
      const result = await db.deleteFrom("sessions").where("expires_at", "<=", now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
