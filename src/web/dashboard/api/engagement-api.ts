import { createDashboardRequest } from "./dashboard-request.js";
import { ENGAGEMENT_ROUTES } from "../../../shared/api/engagement-rule.js";
import type { EngagementResponse } from "../../../shared/api/engagement.js";

/** GET /stats/engagement: the active / sleeping split per site now and per day. */
export function fetchEngagement(days = 30): Promise<EngagementResponse> {
  const { json } = createDashboardRequest();
  return json<EngagementResponse>("GET", `${ENGAGEMENT_ROUTES.engagement}?days=${days}`);
}
