import { API_ROUTES, sitePath } from "../../../shared/api/routes.js";
import type { CreateSiteRequest, DeleteSiteResponse, Site, SitesResponse } from "../../../shared/api/sites.js";
import { createJsonRequest } from "../../../client/http/json-request.js";
import { dashboardApiErrorFrom } from "./dashboard-api.js";

/** Sites: the origins allowed to collect subscribers with the embedded bell. */
export interface SitesApi {
  listSites(): Promise<SitesResponse>;
  createSite(request: CreateSiteRequest): Promise<Site>;
  deleteSite(id: string): Promise<DeleteSiteResponse>;
}

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createSitesApi(options: { baseUrl?: string; fetch?: typeof fetch } = {}): SitesApi {
  const { json } = createJsonRequest({ ...options, toError: dashboardApiErrorFrom });
  return {
    listSites() {
      return json<SitesResponse>("GET", API_ROUTES.sites);
    },
    async createSite(body) {
      return (await json<{ site: Site }>("POST", API_ROUTES.sites, body)).site;
    },
    deleteSite(id) {
      return json<DeleteSiteResponse>("DELETE", sitePath(id));
    },
  };
}
