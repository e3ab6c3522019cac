import { ENGAGEMENT_ROUTES, isTimeRange } from "../../shared/api/engagement-rule.js";
import type { PushSubscriptionJson } from "../../shared/api/subscriptions.js";
import { createJsonRequest } from "../http/json-request.js";
import { ApiRequestError, toApiRequestError } from "../messaging/api-client.js";
import embed from "../../shared/i18n/pt-BR/embed.json" with { type: "json" };

/**
 * The subscriber's own quiet hours ("Não me avise entre 22h e 7h"), read and set with proof of
 * possession (the subscription's endpoint and auth secret, which only this browser and Sino know).
 * `HH:MM-HH:MM` in the browser's own time zone, may wrap midnight; null: none.
 */
export interface QuietHoursClient {
  /** This browser's quiet hours as the server holds them. Rejects with `not_subscribed` while off. */
  read(token: PushSubscriptionJson | null): Promise<string | null>;
  /** Stores them (null clears); resolves with what the server stored. Rejects with `quiet_hours_invalid` for a bad range. */
  write(token: PushSubscriptionJson | null, range: string | null): Promise<string | null>;
}

const NOT_SUBSCRIBED = () => new ApiRequestError(0, "not_subscribed", embed.clientErrors.quietHoursNotSubscribed);
const INVALID = () => new ApiRequestError(0, "quiet_hours_invalid", embed.clientErrors.quietHoursInvalid);

export function createQuietHoursClient(options: { baseUrl: string; fetch?: typeof fetch | undefined }): QuietHoursClient {
  const { json } = createJsonRequest({ baseUrl: options.baseUrl, fetch: options.fetch, toError: toApiRequestError });
  const proofOf = (token: PushSubscriptionJson | null) => {
    if (token === null) throw NOT_SUBSCRIBED();
    return { endpoint: token.endpoint, auth: token.keys.auth };
  };
  return {
    async read(token) {
      return (await json<{ quietHours: string | null }>("POST", ENGAGEMENT_ROUTES.quietHoursLookup, proofOf(token))).quietHours;
    },
    async write(token, range) {
      if (range !== null && !isTimeRange(range)) throw INVALID();
      return (await json<{ quietHours: string | null }>("PUT", ENGAGEMENT_ROUTES.quietHours, { ...proofOf(token), quietHours: range })).quietHours;
    },
  };
}
