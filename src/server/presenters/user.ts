import type { User } from "../../shared/api/users.js";
import type { UserRecord } from "../../store/users-repository.js";

/** What the API shows of an operator: never the password hash. */
export function presentUser(user: UserRecord): User {
  return {
    id: String(user.id),
    name: user.name,
    email: user.email,
    role: user.role,
    createdAt: new Date(user.createdAt).toISOString(),
    mustChangePassword: user.mustChangePassword,
  };
}
