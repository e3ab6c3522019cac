import { API_ROUTES, channelPath, subscriberPath } from "../../../shared/api/routes.js";
import type { Channel, CreateChannelRequest, UpdateChannelRequest } from "../../../shared/api/channels.js";
import type { StatsResponse } from "../../../shared/api/stats.js";
import type { SubscribersResponse } from "../../../shared/api/subscribers.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

export interface SubscribersFilter {
  channel?: string | undefined;
  /** A site id. */
  site?: string | undefined;
  browser?: string | undefined;
  /** The start of a person's user id. */
  user?: string | undefined;
  /** `active` or `sleeping` (engagement). */
  activity?: string | undefined;
  /** From 1. */
  page?: number | undefined;
  pageSize?: number | undefined;
}

/** The audience side of the operators' API: channels, subscribers, charts. */
export interface AudienceApi {
  listChannels(): Promise<Channel[]>;
  createChannel(request: CreateChannelRequest): Promise<Channel>;
  updateChannel(id: string, request: UpdateChannelRequest): Promise<Channel>;
  listSubscribers(query: SubscribersFilter): Promise<SubscribersResponse>;
  removeSubscriber(id: string): Promise<void>;
  /** `site`: the charts of one site's subscribers. */
  getStats(days?: number, site?: string): Promise<StatsResponse>;
}

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createAudienceApi(options: DashboardRequestOptions = {}): AudienceApi {
  const { request, json } = createDashboardRequest(options);

  return {
    async listChannels() {
      return (await json<{ channels: Channel[] }>("GET", API_ROUTES.channels)).channels;
    },
    async createChannel(body) {
      return (await json<{ channel: Channel }>("POST", API_ROUTES.channels, body)).channel;
    },
    async updateChannel(id, body) {
      return (await json<{ channel: Channel }>("PATCH", channelPath(id), body)).channel;
    },
    listSubscribers(query) {
      return json("GET", API_ROUTES.subscribers + queryString({ ...query }));
    },
    async removeSubscriber(id) {
      await request("DELETE", subscriberPath(id));
    },
    getStats(days, site) {
      return json("GET", API_ROUTES.stats + queryString({ days, site }));
    },
  };
}

function queryString(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
