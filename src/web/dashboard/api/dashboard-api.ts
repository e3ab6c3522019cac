import { API_ROUTES, tokenPath, userPath } from "../../../shared/api/routes.js";
import { DashboardApiError } from "./dashboard-api-error.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";
import type {
  ApiToken,
  CreatedToken,
  CreateTokenRequest,
  CreateUserRequest,
  SetupRequest,
  SetupStatus,
  ChangeOwnPasswordRequest,
  PasswordResetResponse,
  SignInRequest,
  UpdateUserRequest,
  User,
} from "./types.js";

export interface DashboardApi {
  getSetup(): Promise<SetupStatus>;
  setup(request: SetupRequest): Promise<User>;
  /** The signed-in operator, or null when there is no valid session (401). */
  getSession(): Promise<User | null>;
  signIn(request: SignInRequest): Promise<User>;
  signOut(): Promise<void>;
  listUsers(): Promise<User[]>;
  createUser(request: CreateUserRequest): Promise<User>;
  updateUser(id: string, request: UpdateUserRequest): Promise<User>;
  deleteUser(id: string): Promise<void>;
  /** A temporary password for another operator, shown once; their sessions end. */
  resetUserPassword(id: string): Promise<PasswordResetResponse>;
  /** The signed-in operator's own password, with the current one; answers the updated user. */
  changeOwnPassword(request: ChangeOwnPasswordRequest): Promise<User>;
  listTokens(): Promise<ApiToken[]>;
  createToken(request: CreateTokenRequest): Promise<CreatedToken>;
  revokeToken(id: string): Promise<void>;
}

/**
 * The dashboard's client for the operators' API, same origin, authenticated by the session cookie
 * (the browser sends Origin on every POST/PATCH/DELETE, which the server's CSRF check needs).
 */
export function createDashboardApi(options: DashboardRequestOptions = {}): DashboardApi {
  const { request, json } = createDashboardRequest(options);

  return {
    getSetup: () => json("GET", API_ROUTES.setup),
    async setup(body) {
      return (await json<{ user: User }>("POST", API_ROUTES.setup, body)).user;
    },
    async getSession() {
      try {
        return (await json<{ user: User }>("GET", API_ROUTES.session)).user;
      } catch (error) {
        if (error instanceof DashboardApiError && error.status === 401) return null;
        throw error;
      }
    },
    async signIn(body) {
      return (await json<{ user: User }>("POST", API_ROUTES.session, body)).user;
    },
    async signOut() {
      await request("DELETE", API_ROUTES.session);
    },
    async listUsers() {
      return (await json<{ users: User[] }>("GET", API_ROUTES.users)).users;
    },
    async createUser(body) {
      return (await json<{ user: User }>("POST", API_ROUTES.users, body)).user;
    },
    async updateUser(id, body) {
      return (await json<{ user: User }>("PATCH", userPath(id), body)).user;
    },
    async deleteUser(id) {
      await request("DELETE", userPath(id));
    },
    resetUserPassword: (id) => json("POST", `${userPath(id)}/password-reset`),
    async changeOwnPassword(body) {
      return (await json<{ user: User }>("PUT", API_ROUTES.sessionPassword, body)).user;
    },
    async listTokens() {
      return (await json<{ tokens: ApiToken[] }>("GET", API_ROUTES.tokens)).tokens;
    },
    createToken: (body) => json("POST", API_ROUTES.tokens, body),
    async revokeToken(id) {
      await request("DELETE", tokenPath(id));
    },
  };
}
