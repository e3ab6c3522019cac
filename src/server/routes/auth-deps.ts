import type { ApiTokensRepository } from "../../store/api-tokens-repository.js";
import type { SessionsRepository } from "../../store/sessions-repository.js";
import type { UsersRepository } from "../../store/users-repository.js";
import type { Authenticator } from "../auth/authenticator.js";
import type { CommonPasswords } from "../auth/common-passwords.js";
import type { LoginThrottle } from "../auth/login-throttle.js";
import type { PasswordHasher } from "../auth/password.js";
import type { Translator } from "../i18n.js";

/** What the set-up, session, user and token routes need; built once in `buildApp`. */
export interface AuthRoutesDeps {
  readonly users: UsersRepository;
  readonly sessions: SessionsRepository;
  readonly tokens: ApiTokensRepository;
  readonly authenticator: Authenticator;
  readonly throttle: LoginThrottle;
  readonly hasher: PasswordHasher;
  /** Passwords refused wherever one is set (set-up, new user, password change). */
  readonly commonPasswords: CommonPasswords;
  readonly translator: Translator;
  /** SINO_PUBLIC_URL: the origin the CSRF checks accept besides the request's own Host. */
  readonly publicUrl: string;
  readonly now: () => number;
  /** Waits before answering a throttled sign-in (tests pass one that records instead of waiting). */
  readonly sleep: (ms: number) => Promise<void>;
}
