import { API_ROUTES } from "../../shared/api/routes.js";
import type { PublicChannel } from "../../shared/api/channels.js";
import type { PublicConfig } from "../../shared/api/config.js";
import type { NotificationEventRequest } from "../../shared/api/events.js";
import type { NoticesResponse } from "../../shared/api/notices.js";
import type {
  PushSubscriptionJson,
  RegisterSubscriptionResponse,
  RemoveSubscriptionRequest,
  SignedUserClaim as UserClaim,
  SubscriptionProof,
} from "../../shared/api/subscriptions.js";
import type { Tags, TagsPatch } from "../../shared/api/tag-rule.js";
import { createJsonRequest, type RequestFailure } from "../http/json-request.js";

/** A failed API call: `status` 0 means the request never got an HTTP answer. */
export class ApiRequestError extends Error {
  override readonly name = "ApiRequestError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** 4xx: the server understood and refused; retrying the same request will not help. */
  get definitive(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

/** Any failure as an `ApiRequestError` (code `unexpected` for what is not one). */
export function asApiError(error: unknown): ApiRequestError {
  return error instanceof ApiRequestError
    ? error
    : new ApiRequestError(0, "unexpected", error instanceof Error ? error.message : String(error));
}

/**
 * GET /config with the active channels and the per-subscription limit. Servers from before
 * channels existed send neither, hence optional.
 */
export type PublicConfigWithChannels = PublicConfig & { channels?: PublicChannel[]; maxChannelsPerSubscription?: number; organisation?: PublicConfig["organisation"] };

/** What a registration answers, with the channels (slugs) the subscription is in. */
export type RegisteredSubscription = RegisterSubscriptionResponse & { subscription: { channels?: string[] } };

export interface NoticesRequest {
  channel?: string | undefined;
  before?: string | undefined;
  limit?: number | undefined;
}

export interface ApiClient {
  getConfig(): Promise<PublicConfigWithChannels>;
  /**
   * `previous`: the subscription the browser rotated away from, so the server moves its channels.
   * `user`: the person to tie it to, in the same transaction (a refused identification refuses all).
   */
  registerSubscription(subscription: PushSubscriptionJson, previous?: SubscriptionProof, user?: UserClaim): Promise<RegisteredSubscription>;
  /** PUT /subscriptions/user: ties an existing subscription to a person. */
  identifySubscription(proof: SubscriptionProof, user: UserClaim): Promise<void>;
  /** DELETE /subscriptions/user: makes it anonymous again (its channels stay); a 404 counts as done. */
  forgetSubscription(proof: SubscriptionProof): Promise<void>;
  /** Resolves when removed, and also when the server no longer knows the endpoint (404). */
  removeSubscription(request: RemoveSubscriptionRequest): Promise<void>;
  /** PUT /subscriptions/tags: merges visitor tags (null removes one); resolves with all of them. */
  setVisitorTags(proof: SubscriptionProof, tags: TagsPatch): Promise<Tags>;
  /** Replaces the subscription's channels (slugs); resolves with what the server stored. */
  updateChannels(proof: SubscriptionProof, channels: string[]): Promise<string[]>;
  listNotices(request: NoticesRequest): Promise<NoticesResponse>;
  reportEvent(event: NotificationEventRequest): Promise<void>;
}

export interface ApiClientOptions {
  /** Sino's origin (or base URL without a trailing slash); "" = the page's own origin. */
  baseUrl?: string;
  /**
   * The site's public key when the page is another site than Sino itself (issue 9): the config is
   * read for that site and each registration records it. Absent on Sino's own origin.
   */
  site?: string | null | undefined;
  fetch?: typeof fetch;
  /** The browser's IANA time zone, sent with each registration (segments' `fuso`); none when unknown. */
  timeZone?: string | null | undefined;
  /**
   * Whether the browser shows declarative push messages (`supportsDeclarativePush`), sent with each
   * registration so the server picks the payload's form. A page always says; a service worker
   * cannot tell (the hook is on `Window`) and leaves it out, which the server reads as false until
   * the next visit says again.
   */
  declarative?: boolean | undefined;
}

/** The Sino API as the page and the service worker call it (same origin by default). */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const { request, json } = createJsonRequest({ baseUrl: options.baseUrl, fetch: options.fetch, toError: toApiRequestError });
  const site = options.site ?? null;
  const configPath = site === null ? API_ROUTES.config : `${API_ROUTES.config}?site=${encodeURIComponent(site)}`;

  return {
    async getConfig() {
      return json<PublicConfig>("GET", configPath);
    },
    async registerSubscription(subscription, previous, user) {
      const timeZone = options.timeZone ?? null;
      const body = {
        ...subscription,
        ...(previous ? { previous } : {}),
        ...(site === null ? {} : { site }),
        ...(user ? { user } : {}),
        ...(timeZone === null ? {} : { timeZone }),
        ...(options.declarative === undefined ? {} : { declarative: options.declarative }),
      };
      return json<RegisteredSubscription>("POST", API_ROUTES.subscriptions, body);
    },
    async identifySubscription(proof, user) {
      await request("PUT", API_ROUTES.subscriptionUser, { endpoint: proof.endpoint, auth: proof.auth, user });
    },
    async forgetSubscription(proof) {
      try {
        await request("DELETE", API_ROUTES.subscriptionUser, { endpoint: proof.endpoint, auth: proof.auth });
      } catch (error) {
        // Unknown to the server: there is nothing left to tie to anyone.
        if (error instanceof ApiRequestError && error.status === 404) return;
        throw error;
      }
    },
    async removeSubscription(body) {
      try {
        await request("DELETE", API_ROUTES.subscriptions, body);
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 404) return;
        throw error;
      }
    },
    async setVisitorTags(proof, tags) {
      return (await json<{ tags: Tags }>("PUT", API_ROUTES.subscriptionTags, { endpoint: proof.endpoint, auth: proof.auth, tags })).tags;
    },
    async updateChannels(proof, channels) {
      const body = { endpoint: proof.endpoint, auth: proof.auth, channels };
      return (await json<{ channels: string[] }>("PUT", API_ROUTES.subscriptionChannels, body)).channels;
    },
    async listNotices({ channel, before, limit }) {
      const query = new URLSearchParams();
      if (channel) query.set("channel", channel);
      if (before) query.set("before", before);
      if (limit !== undefined) query.set("limit", String(limit));
      const text = query.toString();
      const suffix = text === "" ? "" : `?${text}`;
      return json<NoticesResponse>("GET", API_ROUTES.notices + suffix);
    },
    async reportEvent(event) {
      await request("POST", API_ROUTES.events, event);
    },
  };
}

export function toApiRequestError(failure: RequestFailure): ApiRequestError {
  if (failure.kind === "network") {
    const { cause } = failure;
    return new ApiRequestError(0, "network_error", cause instanceof Error ? cause.message : String(cause));
  }
  if (failure.error) return new ApiRequestError(failure.status, failure.error.code, failure.error.message ?? failure.statusText);
  return new ApiRequestError(failure.status, "http_error", `HTTP ${failure.status}`);
}
