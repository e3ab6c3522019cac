import { siteVapidKeyPath, type SetSiteKeyRequest, type SetSiteKeyResponse, type SiteKeys, type SiteKeysResponse } from "../../../shared/api/site-keys.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

/** A site's VAPID keys (admin): read them (public keys only), choose or rotate them. */
export interface SiteKeysApi {
  getSiteKeys(siteId: string): Promise<SiteKeys>;
  setSiteKey(siteId: string, request: SetSiteKeyRequest): Promise<SetSiteKeyResponse>;
}

export function createSiteKeysApi(options: DashboardRequestOptions = {}): SiteKeysApi {
  const { json } = createDashboardRequest(options);
  return {
    async getSiteKeys(siteId) {
      return (await json<SiteKeysResponse>("GET", siteVapidKeyPath(siteId))).keys;
    },
    setSiteKey(siteId, body) {
      return json<SetSiteKeyResponse>("PUT", siteVapidKeyPath(siteId), body);
    },
  };
}
