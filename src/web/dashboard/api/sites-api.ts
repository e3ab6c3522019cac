import { API_ROUTES, siteIdentitySecretPath, sitePath } from "../../../shared/api/routes.js";
import type { CreateSiteRequest, DeleteSiteResponse, IdentitySecretResponse, Site, SitesResponse, UpdateSiteRequest } from "../../../shared/api/sites.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

/** Sites: the origins allowed to collect subscribers with the embedded bell. */
export interface SitesApi {
  listSites(): Promise<SitesResponse>;
  createSite(request: CreateSiteRequest): Promise<Site>;
  deleteSite(id: string): Promise<DeleteSiteResponse>;
  /** Turns identity verification on or off. */
  updateSite(id: string, request: UpdateSiteRequest): Promise<Site>;
  /** Generates or replaces the site's identity secret: the answer is the only time it is shown. */
  rotateIdentitySecret(id: string): Promise<IdentitySecretResponse>;
}

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createSitesApi(options: DashboardRequestOptions = {}): SitesApi {
  const { json } = createDashboardRequest(options);
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
    async updateSite(id, body) {
      return (await json<{ site: Site }>("PATCH", sitePath(id), body)).site;
    },
    rotateIdentitySecret(id) {
      return json<IdentitySecretResponse>("POST", siteIdentitySecretPath(id));
    },
  };
}
