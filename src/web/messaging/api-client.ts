import { API_ROUTES } from "../../shared/api/routes.js";
import type { PublicConfig } from "../../shared/api/config.js";
import type {
  PushSubscriptionJson,
  RegisterSubscriptionResponse,
  RemoveSubscriptionRequest,
} from "../../shared/api/subscriptions.js";
import type { ApiErrorBody } from "../../shared/errors.js";

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

export interface ApiClient {
  getConfig(): Promise<PublicConfig>;
  registerSubscription(subscription: PushSubscriptionJson): Promise<RegisterSubscriptionResponse>;
  /** Resolves when removed, and also when the server no longer knows the endpoint (404). */
  removeSubscription(request: RemoveSubscriptionRequest): Promise<void>;
}

/** The Sino API as the page and the service worker call it (same origin by default). */
export function createApiClient(options: { baseUrl?: string; fetch?: typeof fetch } = {}): ApiClient {
  const baseUrl = options.baseUrl ?? "";
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  async function request(method: string, path: string, body?: unknown): Promise<Response> {
    let response: Response;
    try {
      response = await doFetch(baseUrl + path, {
        method,
        headers: body === undefined ? { accept: "application/json" } : { "content-type": "application/json", accept: "application/json" },
        body: body === undefined ? null : JSON.stringify(body),
        credentials: "same-origin",
      });
    } catch (error) {
      throw new ApiRequestError(0, "network_error", error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) throw await toApiError(response);
    return response;
  }

  return {
    async getConfig() {
      return (await (await request("GET", API_ROUTES.config)).json()) as PublicConfig;
    },
    async registerSubscription(subscription) {
      return (await (await request("POST", API_ROUTES.subscriptions, subscription)).json()) as RegisterSubscriptionResponse;
    },
    async removeSubscription(body) {
      try {
        await request("DELETE", API_ROUTES.subscriptions, body);
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 404) return;
        throw error;
      }
    },
  };
}

async function toApiError(response: Response): Promise<ApiRequestError> {
  try {
    const body = (await response.json()) as Partial<ApiErrorBody>;
    if (body.error && typeof body.error.code === "string") {
      return new ApiRequestError(response.status, body.error.code, body.error.message ?? response.statusText);
    }
  } catch {
    // Not JSON (a proxy's error page, say): fall through to the bare status.
  }
  return new ApiRequestError(response.status, "http_error", `HTTP ${response.status}`);
}
