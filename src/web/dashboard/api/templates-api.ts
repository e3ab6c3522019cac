import type { CreateTemplateRequest, Template, TemplateResponse, TemplatesResponse, UpdateTemplateRequest } from "../../../shared/api/templates.js";
import { API_ROUTES, templatePath } from "../../../shared/api/routes.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

export type { Template, TemplateAudience } from "../../../shared/api/templates.js";

/** Templates (*modelos*): saved send contents any operator starts a send from. */
export interface TemplatesApi {
  listTemplates(): Promise<Template[]>;
  getTemplate(id: string): Promise<Template>;
  createTemplate(request: CreateTemplateRequest): Promise<Template>;
  updateTemplate(id: string, request: UpdateTemplateRequest): Promise<Template>;
  deleteTemplate(id: string): Promise<void>;
}

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createTemplatesApi(options: DashboardRequestOptions = {}): TemplatesApi {
  const { json, request } = createDashboardRequest(options);
  return {
    async listTemplates() {
      return (await json<TemplatesResponse>("GET", API_ROUTES.templates)).templates;
    },
    async getTemplate(id) {
      return (await json<TemplateResponse>("GET", templatePath(id))).template;
    },
    async createTemplate(body) {
      return (await json<TemplateResponse>("POST", API_ROUTES.templates, body)).template;
    },
    async updateTemplate(id, body) {
      return (await json<TemplateResponse>("PATCH", templatePath(id), body)).template;
    },
    async deleteTemplate(id) {
      await request("DELETE", templatePath(id));
    },
  };
}
