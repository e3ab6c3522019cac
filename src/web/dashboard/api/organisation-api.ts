import type { Organisation, OrganisationResponse, UpdateOrganisationRequest } from "../../../shared/api/organisation.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

/** The organisation's identity (Painel → Organização): anyone reads it, admins change it. */
export interface OrganisationApi {
  getOrganisation(): Promise<Organisation>;
  updateOrganisation(request: UpdateOrganisationRequest): Promise<Organisation>;
}

export function createOrganisationApi(options: DashboardRequestOptions = {}): OrganisationApi {
  const { json } = createDashboardRequest(options);
  return {
    async getOrganisation() {
      return (await json<OrganisationResponse>("GET", API_ROUTES.organisation)).organisation;
    },
    async updateOrganisation(body) {
      return (await json<OrganisationResponse>("PUT", API_ROUTES.organisation, body)).organisation;
    },
  };
}
