import { serialId, type SinoMigration } from "./migration.js";

/**
 * Who may operate Sino: users (argon2id password hashes), their sessions (only a SHA-256 of the
 * cookie is stored, so a leaked database does not hand out live sessions), API tokens (SHA-256 of
 * the secret) and the sign-in failure counters the brute-force throttle shares between processes.
 */
export const operators: SinoMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("users")
      .$call(serialId(dialect))
      .addColumn("name", "text", (col) => col.notNull())
      // Stored normalised (trimmed, lowercase), so the unique index is case-insensitive in effect.
      .addColumn("email", "text", (col) => col.notNull().unique())
      .addColumn("role", "text", (col) => col.notNull())
      .addColumn("password_hash", "text", (col) => col.notNull())
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("updated_at", "bigint", (col) => col.notNull())
      .execute();

    await db.schema
      .createTable("sessions")
      .addColumn("id_hash", "text", (col) => col.primaryKey())
      .addColumn("user_id", "bigint", (col) => col.notNull().references("users.id").onDelete("cascade"))
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("expires_at", "bigint", (col) => col.notNull())
      .addColumn("refreshed_at", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();

    await db.schema
      .createTable("api_tokens")
      .$call(serialId(dialect))
      .addColumn("name", "text", (col) => col.notNull())
      .addColumn("scope", "text", (col) => col.notNull())
      .addColumn("prefix", "text", (col) => col.notNull())
      .addColumn("secret_hash", "text", (col) => col.notNull().unique())
      // No foreign key: a token outlives the admin who made it (it belongs to the team); the
      // name is kept so the list can still say who created it.
      .addColumn("created_by_id", "bigint", (col) => col.notNull())
      .addColumn("created_by_name", "text", (col) => col.notNull())
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("last_used_at", "bigint")
      .addColumn("revoked_at", "bigint")
      .execute();

    await db.schema
      .createTable("login_attempts")
      // `account:<email>` or `address:<ip>`.
      .addColumn("key", "text", (col) => col.primaryKey())
      .addColumn("failures", "integer", (col) => col.notNull())
      .addColumn("last_failure_at", "bigint", (col) => col.notNull())
      .addColumn("locked_until", "bigint", (col) => col.notNull().defaultTo(0))
      .execute();
  },

  async down(db) {
    await db.schema.dropTable("login_attempts").execute();
    await db.schema.dropTable("api_tokens").execute();
    await db.schema.dropTable("sessions").execute();
    await db.schema.dropTable("users").execute();
  },
};
