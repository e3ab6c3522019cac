import type { ErasureResponse, PersonExportResponse, SubscriptionExportResponse } from "../../../shared/api/privacy.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

/** The operator's side of LGPD (admins): export and erase by person or by subscription. */
export interface PrivacyApi {
  exportPerson(userId: string): Promise<PersonExportResponse>;
  erasePerson(userId: string): Promise<ErasureResponse["erased"]>;
  exportSubscription(id: string): Promise<SubscriptionExportResponse>;
  eraseSubscription(id: string): Promise<ErasureResponse["erased"]>;
}

const personDataPath = (userId: string) => `${API_ROUTES.privacy}/people/${encodeURIComponent(userId)}`;
const subscriptionDataPath = (id: string) => `${API_ROUTES.privacy}/subscriptions/${encodeURIComponent(id)}`;

export function createPrivacyApi(options: DashboardRequestOptions = {}): PrivacyApi {
  const { json } = createDashboardRequest(options);
  return {
    exportPerson: (userId) => json("GET", personDataPath(userId)),
    async erasePerson(userId) {
      return (await json<ErasureResponse>("DELETE", personDataPath(userId))).erased;
    },
    exportSubscription: (id) => json("GET", subscriptionDataPath(id)),
    async eraseSubscription(id) {
      return (await json<ErasureResponse>("DELETE", subscriptionDataPath(id))).erased;
    },
  };
}
