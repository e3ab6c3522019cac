import type { ApiErrorBody } from "../../shared/errors.js";

/** The server's error body (`{error:{code,message,field?}}`), loosely read: only `code` is certain. */
export interface ApiErrorDetail {
  code: string;
  message?: string | undefined;
  field?: string | undefined;
  /** A segment expression's refusal: where in the text (0-based), when the server could say. */
  position?: number | undefined;
}

/**
 * Why a call failed: no HTTP answer at all (`network`, with what fetch threw), or an HTTP error
 * status with the server's error body when it sent one (a proxy's HTML page gives `undefined`).
 */
export type RequestFailure =
  | { kind: "network"; cause: unknown }
  | { kind: "http"; status: number; statusText: string; error: ApiErrorDetail | undefined };

export interface JsonRequestOptions {
  baseUrl?: string | undefined;
  fetch?: typeof fetch | undefined;
  /** Each client keeps its own error class: this turns a failure into it, and it is thrown. */
  toError: (failure: RequestFailure) => Error;
}

export interface JsonRequester {
  /** The answer when it is 2xx (its body unread: a 204 has none); throws `toError(...)` otherwise. */
  request(method: string, path: string, body?: unknown): Promise<Response>;
  /** The 2xx answer's JSON body, as the caller says it is typed. */
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/** The error body of a failed answer, or undefined when it is not ours (not JSON, no code). */
export async function readApiError(response: Response): Promise<ApiErrorDetail | undefined> {
  try {
    const body = (await response.json()) as Partial<ApiErrorBody>;
    if (body.error && typeof body.error.code === "string") return body.error;
  } catch {
    // Not JSON (a proxy's error page, say): the status is all there is.
  }
  return undefined;
}

/** JSON calls to our API, same origin by default, with the session cookie. */
export function createJsonRequest(options: JsonRequestOptions): JsonRequester {
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
    } catch (cause) {
      throw options.toError({ kind: "network", cause });
    }
    if (!response.ok) {
      throw options.toError({ kind: "http", status: response.status, statusText: response.statusText, error: await readApiError(response) });
    }
    return response;
  }

  return {
    request,
    async json<T>(method: string, path: string, body?: unknown): Promise<T> {
      return (await (await request(method, path, body)).json()) as T;
    },
  };
}
