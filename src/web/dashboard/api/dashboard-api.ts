import { API_ROUTES, tokenPath, userPath } from "../../../shared/api/routes.js";
import type { NotificationResponse } from "../../../shared/api/notifications.js";
import { createJsonRequest, readApiError, type RequestFailure } from "../../../client/http/json-request.js";
import type { NotificationRequest } from "../compose/compose-request.js";
import { DashboardApiError } from "./dashboard-api-error.js";
import type {
  ApiToken,
  CreatedToken,
  CreateTokenRequest,
  CreateUserRequest,
  SetupRequest,
  SetupStatus,
  SignInRequest,
  UpdateUserRequest,
  User,
} from "./types.js";

/** The operators' API paths (src/shared/api/routes.ts), plus the sends API still to come. */
export const DASHBOARD_ROUTES = {
  setup: API_ROUTES.setup,
  session: API_ROUTES.session,
  users: API_ROUTES.users,
  tokens: API_ROUTES.tokens,
  /** The sends API (src/shared/api/notifications.ts). */
  notifications: API_ROUTES.notifications,
} as const;

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
  listTokens(): Promise<ApiToken[]>;
  createToken(request: CreateTokenRequest): Promise<CreatedToken>;
  revokeToken(id: string): Promise<void>;
  /** POST /notifications: the send as created (now, or scheduled). */
  createNotification(request: NotificationRequest): Promise<NotificationResponse>;
}

/**
 * The dashboard's client for the operators' API, same origin, authenticated by the session cookie
 * (the browser sends Origin on every POST/PATCH/DELETE, which the server's CSRF check needs).
 */
export function createDashboardApi(options: { baseUrl?: string; fetch?: typeof fetch } = {}): DashboardApi {
  const { request, json } = createJsonRequest({ ...options, toError: dashboardApiErrorFrom });

  return {
    getSetup: () => json("GET", DASHBOARD_ROUTES.setup),
    async setup(body) {
      return (await json<{ user: User }>("POST", DASHBOARD_ROUTES.setup, body)).user;
    },
    async getSession() {
      try {
        return (await json<{ user: User }>("GET", DASHBOARD_ROUTES.session)).user;
      } catch (error) {
        if (error instanceof DashboardApiError && error.status === 401) return null;
        throw error;
      }
    },
    async signIn(body) {
      return (await json<{ user: User }>("POST", DASHBOARD_ROUTES.session, body)).user;
    },
    async signOut() {
      await request("DELETE", DASHBOARD_ROUTES.session);
    },
    async listUsers() {
      return (await json<{ users: User[] }>("GET", DASHBOARD_ROUTES.users)).users;
    },
    async createUser(body) {
      return (await json<{ user: User }>("POST", DASHBOARD_ROUTES.users, body)).user;
    },
    async updateUser(id, body) {
      return (await json<{ user: User }>("PATCH", userPath(id), body)).user;
    },
    async deleteUser(id) {
      await request("DELETE", userPath(id));
    },
    async listTokens() {
      return (await json<{ tokens: ApiToken[] }>("GET", DASHBOARD_ROUTES.tokens)).tokens;
    },
    createToken: (body) => json("POST", DASHBOARD_ROUTES.tokens, body),
    async revokeToken(id) {
      await request("DELETE", tokenPath(id));
    },
    createNotification: (body) => json("POST", DASHBOARD_ROUTES.notifications, body),
  };
}

/** The dashboard clients' `toError`: the page shows its own pt-BR text when `message` is empty. */
export function dashboardApiErrorFrom(failure: RequestFailure): DashboardApiError {
  if (failure.kind === "network") return new DashboardApiError(0, "network_error", "");
  if (failure.error) return new DashboardApiError(failure.status, failure.error.code, failure.error.message ?? "", failure.error.field);
  return new DashboardApiError(failure.status, "http_error", "");
}

export async function toDashboardApiError(response: Response): Promise<DashboardApiError> {
  return dashboardApiErrorFrom({ kind: "http", status: response.status, statusText: response.statusText, error: await readApiError(response) });
}
