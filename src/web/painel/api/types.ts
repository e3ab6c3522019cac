/**
 * The shapes of the operators' API as the Painel reads them. They mirror the contract helper G
 * ships in src/shared/api/{auth,users,tokens}.ts; once those exist these become re-exports.
 */
export type Role = "admin" | "publisher";
export type TokenScope = "publish" | "admin";

export interface User {
  id: string;
  name: string;
  email: string;
  role: Role;
  /** ISO 8601. */
  createdAt: string;
}

export interface ApiToken {
  id: string;
  name: string;
  scope: TokenScope;
  /** The first characters of the secret, so an operator can recognise a token in a script. */
  prefix: string;
  createdBy: { id: string; name: string };
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface SetupRequest {
  name: string;
  email: string;
  password: string;
}

export interface SignInRequest {
  email: string;
  password: string;
}

export interface CreateUserRequest {
  name: string;
  email: string;
  password: string;
  role: Role;
}

export interface UpdateUserRequest {
  name?: string;
  role?: Role;
  password?: string;
}

export interface CreateTokenRequest {
  name: string;
  scope: TokenScope;
}

export interface CreatedToken {
  token: ApiToken;
  /** Shown once: the server keeps only its hash. */
  secret: string;
}
