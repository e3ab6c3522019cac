import { QueueFullError, WriterClosedError } from "./ingestion/group-commit.js";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { ERROR_STATUS, isErrorCode, type ApiErrorBody, type ErrorCode } from "../shared/errors.js";
import type { SegmentError } from "../shared/segments/segment-error.js";
import { isDatabaseUnavailable } from "../store/database-unavailable.js";
import { isSegmentTimeout } from "../store/segments-repository.js";
import type { Translator } from "./i18n.js";

/**
 * An error the API answers with: a stable code (src/shared/errors.ts), its HTTP status, and
 * optionally the request field it is about. The pt-BR message is looked up when answering.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly field?: string,
    options?: ErrorOptions,
    readonly detail?: ApiErrorDetail,
  ) {
    super(code, options);
    this.statusCode = ERROR_STATUS[code];
  }
}

/** What makes an error's message specific: where in a text (0-based), and a catalog key saying what was wrong there. */
export interface ApiErrorDetail {
  readonly position: number;
  readonly reason: string;
  readonly params?: Readonly<Record<string, string | number>>;
  /** The reason is the whole message (it says more than the code's own message). */
  readonly replacesMessage?: boolean;
  /** Numbers the body carries as `error.details` (a notification's `payload_too_large`). */
  readonly details?: { readonly bytes: number; readonly max: number; readonly over: number };
}

/** A segment expression's refusal: its code, and its position and reason for the message. */
export function segmentApiError(error: SegmentError, field?: string): ApiError {
  return new ApiError(error.code, field, undefined, { position: error.position, reason: error.reason, ...(error.params === undefined ? {} : { params: error.params }) });
}

/**
 * An error about a limit, whose message names it (issue 23: "some errors do not name the limit"):
 * `limitError("too_many_channels", "channels", "channels", 10)` → "…canais demais… O limite é 10
 * canais por inscrição." `reason` is a key of `api:limits`.
 */
/** `max` is the bound itself: the largest (or, for the *Min reasons, the smallest) accepted. */
export function limitError(code: ErrorCode, field: string | undefined, reason: LimitReason, max: number, options?: ErrorOptions): ApiError {
  return new ApiError(code, field, options, { position: -1, reason: `api:limits.${reason}`, params: { max: formatNumber(max), min: formatNumber(max), field: field ?? "" } });
}

export type LimitReason = "bodyBytes" | "endpointChars" | "channels" | "streams" | "siteSubscriptions" | "stringMax" | "stringMin" | "stringEmpty" | "arrayMax" | "arrayMin" | "numberMax" | "numberMin";

const NUMBER_FORMAT = new Intl.NumberFormat("pt-BR");
function formatNumber(value: number): string {
  return NUMBER_FORMAT.format(value);
}

/**
 * A notification whose encrypted push cannot fit one record: "A notificação cifrada ficaria com 4.180
 * bytes… Corte 84 bytes…", with `details: { bytes, max, over }` for the Painel.
 */
export function payloadTooLargeError(details: { readonly bytes: number; readonly max: number; readonly over: number }, options?: ErrorOptions): ApiError {
  const params = { count: details.over, bytes: formatNumber(details.bytes), max: formatNumber(details.max), over: formatNumber(details.over) };
  return new ApiError("payload_too_large", undefined, options, { position: -1, reason: "api:pushTooLarge", params, replacesMessage: true, details: { bytes: details.bytes, max: details.max, over: details.over } });
}

/** The one way handlers make an error: `throw apiError("subscription_not_found")`. */
export function apiError(code: ErrorCode, field?: string, options?: ErrorOptions): ApiError {
  return new ApiError(code, field, options);
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export function errorBody(translator: Translator, code: ErrorCode, field?: string, detail?: ApiErrorDetail): ApiErrorBody {
  const message = detail?.replacesMessage === true ? translator.t(detail.reason, { ...detail.params }) : translator.t(`errors:${code}`);
  return {
    error: {
      code,
      message: detail === undefined || detail.replacesMessage === true ? message : `${message} ${detailText(translator, detail)}`,
      ...(field === undefined ? {} : { field }),
      ...(detail === undefined || detail.position < 0 ? {} : { position: detail.position }),
      ...(detail?.details === undefined ? {} : { details: { ...detail.details } }),
    },
  };
}

/** "Na posição 12: esperava um valor…" (1-based for people), or the reason alone when there is no position. */
function detailText(translator: Translator, detail: ApiErrorDetail): string {
  const reason = translator.t(detail.reason, { ...detail.params });
  if (detail.position >= 0) return translator.t("segments:at", { position: detail.position + 1, reason });
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/**
 * Maps what Fastify itself throws (body parsing, limits) onto our codes, so every error, from
 * wherever it comes, has the same shape.
 */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  if (isDatabaseUnavailable(error)) return apiError("database_unavailable", undefined, { cause: error });
  // The write queue is full, or the process is stopping: nothing was stored; the client retries.
  if (error instanceof QueueFullError || error instanceof WriterClosedError) return apiError("write_queue_full", undefined, { cause: error });
  if (isSegmentTimeout(error)) return apiError("segment_timeout", undefined, { cause: error });
  if (hasZodFastifySchemaValidationErrors(error)) return fromSchemaValidation(error.validation as Parameters<typeof fromSchemaValidation>[0], error);
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  const status =
    typeof error === "object" && error !== null && "statusCode" in error && typeof error.statusCode === "number"
      ? error.statusCode
      : 500;
  switch (code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return apiError("invalid_json", undefined, { cause: error });
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return apiError("payload_too_large", undefined, { cause: error });
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return apiError("unsupported_media_type", undefined, { cause: error });
  }
  if (status === 413) return apiError("payload_too_large", undefined, { cause: error });
  if (status === 415) return apiError("unsupported_media_type", undefined, { cause: error });
  if (status === 404) return apiError("not_found", undefined, { cause: error });
  if (status === 405) return apiError("method_not_allowed", undefined, { cause: error });
  if (status === 429) return apiError("rate_limited", undefined, { cause: error });
  if (status >= 400 && status < 500) return apiError("validation_failed", undefined, { cause: error });
  return apiError("internal_error", undefined, { cause: error });
}

/**
 * A request that failed its route's zod schema. Shared schemas give an issue a stable error code
 * as its message (`password_too_short`); any other issue is `validation_failed`. The first issue
 * names the field, as a dotted path (`keys.auth`).
 */
function fromSchemaValidation(issues: ReadonlyArray<{ message: string; instancePath: string; keyword?: string; params?: Record<string, unknown> }>, cause: unknown): ApiError {
  // A field the route does not know (request bodies are strict objects) is named before anything
  // else: it is most often a misspelt name, which is also why a required field seems missing.
  const unknown = issues.find((issue) => issue.keyword === "unrecognized_keys");
  const key = Array.isArray(unknown?.params?.keys) ? unknown.params.keys[0] : undefined;
  if (unknown !== undefined && typeof key === "string") {
    const parent = unknown.instancePath.replace(/^\//, "").replaceAll("/", ".");
    return apiError("unknown_field", parent === "" ? key : `${parent}.${key}`, { cause });
  }
  const first = issues[0];
  const path = first?.instancePath.replace(/^\//, "").replaceAll("/", ".") ?? "";
  const code = first !== undefined && isErrorCode(first.message) ? first.message : "validation_failed";
  const field = path === "" ? undefined : path;
  // A bound with no code of its own (`.max(64)` on a field): the answer still says what the bound is.
  if (code === "validation_failed" && first !== undefined) {
    const bound = boundOf(first.keyword, first.params);
    if (bound !== undefined) return limitError(code, field, bound.reason, bound.value, { cause });
  }
  return apiError(code, field, { cause });
}

function boundOf(keyword: string | undefined, params: Record<string, unknown> | undefined): { reason: LimitReason; value: number } | undefined {
  const origin = params?.origin;
  if (keyword === "too_big" && typeof params?.maximum === "number") {
    const value = params.maximum;
    if (origin === "string") return { reason: "stringMax", value };
    if (origin === "array" || origin === "set") return { reason: "arrayMax", value };
    if (origin === "number" || origin === "int") return { reason: "numberMax", value };
  }
  if (keyword === "too_small" && (typeof params?.minimum === "number" || typeof params?.minimum === "bigint")) {
    const value = Number(params.minimum);
    if (origin === "string") return { reason: value <= 1 ? "stringEmpty" : "stringMin", value };
    if (origin === "array" || origin === "set") return { reason: "arrayMin", value };
    if (origin === "number" || origin === "int") return { reason: "numberMin", value };
  }
  return undefined;
}
