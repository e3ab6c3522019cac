import type { CreateFeedRequest, Feed, FeedItem, FeedItemsResponse, FeedsResponse, UpdateFeedRequest } from "../../../shared/api/feeds.js";
import { API_ROUTES, feedItemDecisionPath, feedItemsPath, feedPath } from "../../../shared/api/routes.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

/** RSS/Atom feeds turned into sends (admin). */
export interface FeedsApi {
  listFeeds(): Promise<FeedsResponse>;
  createFeed(request: CreateFeedRequest): Promise<Feed>;
  updateFeed(id: string, changes: UpdateFeedRequest): Promise<Feed>;
  deleteFeed(id: string): Promise<void>;
  pollFeed(id: string): Promise<Feed>;
  listItems(id: string, query: { status?: FeedItem["status"]; page?: number }): Promise<FeedItemsResponse>;
  approveItem(id: string, itemId: string): Promise<FeedItem>;
  dismissItem(id: string, itemId: string): Promise<FeedItem>;
}

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createFeedsApi(options: DashboardRequestOptions = {}): FeedsApi {
  const { json, request } = createDashboardRequest(options);
  return {
    listFeeds: () => json<FeedsResponse>("GET", API_ROUTES.feeds),
    async createFeed(body) {
      return (await json<{ feed: Feed }>("POST", API_ROUTES.feeds, body)).feed;
    },
    async updateFeed(id, changes) {
      return (await json<{ feed: Feed }>("PATCH", feedPath(id), changes)).feed;
    },
    async deleteFeed(id) {
      await request("DELETE", feedPath(id));
    },
    async pollFeed(id) {
      return (await json<{ feed: Feed }>("POST", `${feedPath(id)}/poll`)).feed;
    },
    listItems: (id, query) => json<FeedItemsResponse>("GET", feedItemsPath(id, query)),
    async approveItem(id, itemId) {
      return (await json<{ item: FeedItem }>("POST", feedItemDecisionPath(id, itemId, "approve"))).item;
    },
    async dismissItem(id, itemId) {
      return (await json<{ item: FeedItem }>("POST", feedItemDecisionPath(id, itemId, "dismiss"))).item;
    },
  };
}
