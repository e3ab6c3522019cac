import type { SessionsRepository } from "../../store/sessions-repository.js";
import type { UserRecord, UsersRepository } from "../../store/users-repository.js";
import type { LoginThrottle } from "./login-throttle.js";
import type { PasswordHasher } from "./password.js";
import { newTemporaryPassword } from "./temporary-password.js";

export interface PasswordResetDeps {
  readonly users: UsersRepository;
  readonly sessions: SessionsRepository;
  readonly hasher: PasswordHasher;
  readonly throttle: Pick<LoginThrottle, "clearAccount">;
}

export interface PasswordReset {
  readonly user: UserRecord;
  /** Shown once to whoever reset it; only its argon2id hash is stored. */
  readonly temporaryPassword: string;
}

/**
 * Gives `userId` a new temporary password they must change at their next sign-in, ends all their
 * sessions (whoever holds one loses it: the reason for a reset may be a stolen laptop), and lifts
 * a sign-in lock on their account so they can use it at once. One home for the Painel's reset
 * (POST /users/:id/password-reset) and the machine's (`sino users reset-password`). Undefined
 * when there is no such user.
 */
export async function resetPassword(deps: PasswordResetDeps, userId: number, now: number): Promise<PasswordReset | undefined> {
  const temporaryPassword = newTemporaryPassword();
  const result = await deps.users.update(userId, { passwordHash: await deps.hasher.hash(temporaryPassword), mustChangePassword: true }, now);
  if (result.outcome !== "updated") return undefined;
  await deps.sessions.removeForUser(userId);
  await deps.throttle.clearAccount(result.user.email);
  return { user: result.user, temporaryPassword };
}
