import type { PeopleResponse, PersonDeliveriesResponse, PersonResponse } from "../../../shared/api/people.js";
import type { RecipientOutcome, RecipientsResponse } from "../../../shared/api/recipients.js";
import { API_ROUTES, notificationRecipientsPath, personNotificationsPath, personPath } from "../../../shared/api/routes.js";
import type { Tags } from "../../../shared/api/tag-rule.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

/** People (the host app's users) and what became of each push of a send. */
export interface PeopleApi {
  listPeople(query: { query?: string; page: number; pageSize: number }): Promise<PeopleResponse>;
  getPerson(userId: string): Promise<PersonResponse["person"]>;
  listPersonDeliveries(userId: string, page: { page: number; pageSize: number }): Promise<PersonDeliveriesResponse>;
  /** Replaces the person's trusted tags; resolves with what the server stored. */
  setPersonTags(userId: string, tags: Tags): Promise<Tags>;
  listRecipients(notificationId: string, query: { outcome?: RecipientOutcome | undefined; after?: string | undefined; limit: number }): Promise<RecipientsResponse>;
}

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createPeopleApi(options: DashboardRequestOptions = {}): PeopleApi {
  const { json } = createDashboardRequest(options);
  return {
    listPeople(query) {
      return json("GET", API_ROUTES.people + queryString(query));
    },
    async getPerson(userId) {
      return (await json<PersonResponse>("GET", personPath(userId))).person;
    },
    listPersonDeliveries(userId, page) {
      return json("GET", personNotificationsPath(userId) + queryString(page));
    },
    async setPersonTags(userId, tags) {
      return (await json<{ tags: Tags }>("PUT", `${personPath(userId)}/tags`, { tags })).tags;
    },
    listRecipients(notificationId, query) {
      return json("GET", notificationRecipientsPath(notificationId) + queryString(query));
    },
  };
}

function queryString(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
