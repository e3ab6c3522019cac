import { createDashboardRequest, type DashboardRequestOptions } from "../api/dashboard-request.js";
import type { AuditResponse, PrivacyResponse } from "../../../shared/api/audit.js";
import { API_ROUTES } from "../../../shared/api/routes.js";

export interface AuditFilters {
  /** `user:<id>`, `token:<id>`, `anonymous`, or "" for anyone. */
  actor: string;
  action: string;
  /** `YYYY-MM-DD` (the operator's day, in SINO_TIME_ZONE), or "". */
  from: string;
  to: string;
}

/** The query string GET /audit and GET /audit.csv share (no page for the CSV). */
export function auditQuery(filters: AuditFilters, toInstant: (day: string, nextDay: boolean) => string, page?: { page: number; pageSize: number }): string {
  const params = new URLSearchParams();
  if (filters.actor !== "") params.set("actor", filters.actor);
  if (filters.action !== "") params.set("action", filters.action);
  if (filters.from !== "") params.set("from", toInstant(filters.from, false));
  if (filters.to !== "") params.set("to", toInstant(filters.to, true));
  if (page !== undefined) {
    params.set("page", String(page.page));
    params.set("pageSize", String(page.pageSize));
  }
  const query = params.toString();
  return query === "" ? "" : `?${query}`;
}

/** Auditoria (admin): read the log; the CSV is a plain link. */
export function createAuditApi(options: DashboardRequestOptions = {}) {
  const { json } = createDashboardRequest(options);
  return {
    list: (query: string) => json<AuditResponse>("GET", `${API_ROUTES.audit}${query}`),
    privacy: () => json<PrivacyResponse>("GET", API_ROUTES.privacy),
  };
}
