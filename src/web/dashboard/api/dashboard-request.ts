import { createJsonRequest, type JsonRequester, type RequestFailure } from "../../../client/index.js";
import { isErrorCode } from "../../../shared/errors.js";
import { DashboardApiError } from "./dashboard-api-error.js";

/** Where the Painel's clients send their calls: same origin by default; tests pass their own. */
export interface DashboardRequestOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
}

/**
 * The requester every Painel API client is built on: the bell client's JSON requester (through
 * src/client's public entry), its failures turned into `DashboardApiError`.
 */
export function createDashboardRequest(options: DashboardRequestOptions = {}): JsonRequester {
  return createJsonRequest({ ...options, toError: dashboardApiErrorFrom });
}

/** The dashboard clients' `toError`: the page shows its own pt-BR text when `message` is empty. */
export function dashboardApiErrorFrom(failure: RequestFailure): DashboardApiError {
  if (failure.kind === "network") return new DashboardApiError(0, undefined, "");
  if (failure.error) {
    const { code, message, field, position } = failure.error;
    const at = typeof position === "number" && position >= 0 ? position : undefined;
    return new DashboardApiError(failure.status, isErrorCode(code) ? code : undefined, message ?? "", field, at);
  }
  return new DashboardApiError(failure.status, undefined, "");
}
