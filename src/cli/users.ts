import { createLoginThrottle } from "../server/auth/login-throttle.js";
import { createPasswordHasher } from "../server/auth/password.js";
import { resetPassword } from "../server/auth/password-reset.js";
import type { Config } from "../server/config.js";
import type { Translator } from "../server/i18n.js";
import { emailSchema } from "../shared/api/users.js";
import { createDatabase } from "../store/database.js";
import { migrateToLatest } from "../store/migrate.js";
import { createRepositories, type Repositories } from "../store/repositories.js";
import type { CliIo } from "./main.js";

/**
 * `sino users …`: the Painel's operators, straight from the configured database, for whoever runs
 * the server's machine. It is the way back in when no admin can sign in (the only admin forgot
 * the password, or locked the account), so it needs no running server and no token: access to
 * the database (DATABASE_URL) is the credential, as for `sino admin create`.
 */
async function withRepositories<T>(config: Config, work: (repositories: Repositories) => Promise<T>): Promise<T> {
  const database = createDatabase({ url: config.databaseUrl, poolSize: 1, schema: config.databaseSchema });
  try {
    await migrateToLatest(database);
    return await work(createRepositories(database));
  } finally {
    await database.destroy();
  }
}

/** `sino users list`: e-mail, role and name of each operator, one per line. Exit code. */
export async function usersListCommand(config: Config, io: CliIo, { t }: Translator): Promise<number> {
  const users = await withRepositories(config, (repositories) => repositories.users.list());
  if (users.length === 0) {
    io.stdout(`${t("cli:users.none")}\n`);
    return 0;
  }
  for (const user of users) {
    const flags = user.mustChangePassword ? ` ${t("cli:users.temporary")}` : "";
    io.stdout(`${user.email}\t${t(`cli:users.roles.${user.role}`)}\t${user.name}${flags}\n`);
  }
  return 0;
}

/**
 * `sino users reset-password <e-mail>`: a temporary password printed once, which must be changed
 * at the next sign-in; the user's sessions end and a sign-in lock on the account is lifted. Exit
 * code: 0 reset, 1 no such user, 2 not an e-mail.
 */
export async function usersResetPasswordCommand(email: string, config: Config, io: CliIo, { t }: Translator): Promise<number> {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) {
    io.stderr(`${t("cli:failed", { message: t("errors:email_invalid") })}\n`);
    return 2;
  }
  const reset = await withRepositories(config, async (repositories) => {
    const user = await repositories.users.findByEmail(parsed.data);
    if (user === undefined) return undefined;
    const throttle = createLoginThrottle({ attempts: repositories.loginAttempts, now: Date.now });
    return resetPassword({ users: repositories.users, sessions: repositories.sessions, hasher: createPasswordHasher(), throttle }, user.id, Date.now());
  });
  if (reset === undefined) {
    io.stderr(`${t("cli:failed", { message: t("cli:users.notFound", { email: parsed.data }) })}\n`);
    return 1;
  }
  io.stdout(`${t("cli:users.reset", { email: reset.user.email, password: reset.temporaryPassword })}\n`);
  return 0;
}
