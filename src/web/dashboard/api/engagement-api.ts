import { createJsonRequest } from "../../../client/http/json-request.js";
import { ENGAGEMENT_ROUTES } from "../../../shared/api/engagement-rule.js";
import type { EngagementResponse } from "../../../shared/api/engagement.js";
import { dashboardApiErrorFrom } from "./dashboard-api.js";

/** GET /stats/engagement: the active / sleeping split per site now and per day. */
export function fetchEngagement(days = 30): Promise<EngagementResponse> {
  const { json } = createJsonRequest({ toError: dashboardApiErrorFrom });
  return json<EngagementResponse>("GET", `${ENGAGEMENT_ROUTES.engagement}?days=${days}`);
}
