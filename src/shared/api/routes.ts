/** The API paths, shared by the server (which serves them) and the web app (which calls them). */
export const API_PREFIX = "/api/v1";

export const API_ROUTES = {
  /** GET: the public configuration the web app needs (`PublicConfig`). */
  config: `${API_PREFIX}/config`,
  /** POST: register (idempotent on the endpoint). DELETE with a JSON body: remove, with proof. */
  subscriptions: `${API_PREFIX}/subscriptions`,
} as const;
