import { createHash } from "node:crypto";
import { isDeliveryError, type DeliveryErrorCode } from "../../../delivery/delivery-error.js";
import type { DeliveryEngine } from "../../../delivery/engine.js";
import type { SendInput } from "../../../delivery/send-input.js";
import {
  NOTIFICATION_LIMITS,
  type NotificationAudience,
  type NotificationResponse,
  type NotificationUrgency,
} from "../../../shared/api/notifications.js";
import type { ErrorCode } from "../../../shared/errors.js";
import type { SubscriptionsRepository } from "../../../store/subscriptions-repository.js";
import type { Principal } from "../../auth/principal.js";
import { apiError } from "../../errors.js";
import { presentNotification } from "../../presenters/notification.js";
import { resolveAudience, type AudienceDeps, type AudienceFields } from "./resolve-audience.js";

/** A send request after its schema: from POST /notifications or from the quick publish. */
export interface PublishRequest {
  readonly title: string;
  readonly body?: string | undefined;
  readonly url?: string | undefined;
  readonly icon?: string | undefined;
  readonly image?: string | undefined;
  readonly urgency: NotificationUrgency;
  readonly ttl: number;
  readonly audience: NotificationAudience;
  readonly sendAt?: string | undefined;
}

export interface PublishDeps extends AudienceDeps {
  readonly engine: Pick<DeliveryEngine, "createSend">;
  readonly subscriptions: Pick<SubscriptionsRepository, "findByEndpoint">;
  /** SINO_PUBLIC_URL: an http link on this origin is "same-origin", hence allowed. */
  readonly publicUrl: string;
  readonly now: () => number;
}

export interface PublishAnswer {
  readonly statusCode: number;
  readonly body: NotificationResponse;
  /** The answer of an earlier request with the same Idempotency-Key. */
  readonly replayed: boolean;
}

/** A send's refusals point into its body. */
const BODY_FIELDS: AudienceFields = { channels: "audience.channels", sites: "audience.sites" };

/** A send scheduled up to this long ago is sent now: the clocks of client and server differ a little. */
const PAST_TOLERANCE_MS = 60_000;

const DELIVERY_ERRORS: Record<DeliveryErrorCode, { code: ErrorCode; field?: string }> = {
  title_required: { code: "title_required", field: "title" },
  payload_too_large: { code: "notification_too_large" },
  ttl_invalid: { code: "ttl_invalid", field: "ttl" },
  urgency_invalid: { code: "urgency_invalid", field: "urgency" },
  topic_invalid: { code: "validation_failed" },
  send_not_found: { code: "notification_not_found" },
};

/** Rethrows the engine's coded refusal as the API's error. */
export function toApiFailure(error: unknown): never {
  if (isDeliveryError(error)) {
    const mapped = DELIVERY_ERRORS[error.code];
    throw apiError(mapped.code, mapped.field, { cause: error });
  }
  throw error;
}

/** `user:<id>` or `token:<id>`: whose Idempotency-Keys these are. */
export function keyScopeOf(principal: Principal): string {
  return principal.kind === "token" ? `token:${principal.token.id}` : `user:${principal.user.id}`;
}

/** RFC 9110 field values are visible ASCII; Stripe-like keys are UUIDs or similar. */
export function checkIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value.join(",") : value;
  if (key.length < 1 || key.length > NOTIFICATION_LIMITS.idempotencyKey || !/^[\x21-\x7e]+$/.test(key)) {
    throw apiError("idempotency_key_invalid");
  }
  return key;
}

/**
 * Creates a send for an operator or a token: link and schedule rules and the "send to me" endpoint
 * check here, then the engine — which, with an Idempotency-Key, stores the key and the send in one
 * transaction (the same key again replays the first answer).
 */
export async function publish(deps: PublishDeps, principal: Principal, request: PublishRequest, idempotencyKey: string | undefined, route: string): Promise<PublishAnswer> {
  const input = await toSendInput(deps, request, deps.now());
  if (idempotencyKey === undefined) {
    const send = await deps.engine.createSend(input).catch(toApiFailure);
    return { statusCode: 201, body: { notification: presentNotification(send) }, replayed: false };
  }
  const requestHash = hashRequest(route, request);
  const result = await deps.engine
    .createSend(input, {
      idempotency: {
        scope: keyScopeOf(principal),
        key: idempotencyKey,
        requestHash,
        answer: (send) => ({ statusCode: 201, response: JSON.stringify({ notification: presentNotification(send) }) }),
      },
    })
    .catch(toApiFailure);
  const body = JSON.parse(result.answer.response) as NotificationResponse;
  if (result.outcome === "created") return { statusCode: 201, body, replayed: false };
  if (result.answer.requestHash !== requestHash) throw apiError("idempotency_key_reused");
  return { statusCode: result.answer.statusCode, body, replayed: true };
}

async function toSendInput(deps: PublishDeps, request: PublishRequest, now: number): Promise<SendInput> {
  const origin = new URL(deps.publicUrl).origin;
  for (const field of ["url", "icon", "image"] as const) {
    const value = request[field];
    // https anywhere, a path here, or http only on this very origin (a plain-http install).
    if (value !== undefined && value.startsWith("http:") && new URL(value).origin !== origin) throw apiError("link_invalid", field);
  }
  let sendAt: number | undefined;
  if (request.sendAt !== undefined) {
    const at = Date.parse(request.sendAt);
    if (Number.isNaN(at)) throw apiError("send_at_invalid", "sendAt");
    if (at < now - PAST_TOLERANCE_MS) throw apiError("send_at_past", "sendAt");
    if (at > now + NOTIFICATION_LIMITS.scheduleDays * 86_400_000) throw apiError("send_at_too_far", "sendAt");
    if (at > now) sendAt = at;
  }
  let audience: SendInput["audience"];
  if (request.audience.type === "endpoint") {
    const subscription = await deps.subscriptions.findByEndpoint(request.audience.endpoint);
    if (subscription === undefined) throw apiError("subscription_not_found", "audience.endpoint");
    // The stored spelling: the send is matched against the row, whatever spelling was asked for.
    audience = { kind: "endpoint", endpoint: subscription.endpoint };
  } else {
    const channels = request.audience.type === "channels" ? request.audience.channels : undefined;
    audience = (await resolveAudience(deps, { channels, sites: request.audience.sites }, BODY_FIELDS)).audience;
  }
  return {
    title: request.title,
    ...(request.body === undefined || request.body === "" ? {} : { body: request.body }),
    ...(request.url === undefined || request.url === "" ? {} : { url: request.url }),
    ...(request.icon === undefined || request.icon === "" ? {} : { icon: request.icon }),
    ...(request.image === undefined || request.image === "" ? {} : { image: request.image }),
    urgency: request.urgency,
    ttlSeconds: request.ttl,
    audience,
    ...(sendAt === undefined ? {} : { sendAt }),
  };
}

/** The request as its key remembers it: the route and the validated body, keys in a fixed order. */
function hashRequest(route: string, request: PublishRequest): string {
  return createHash("sha256").update(`${route}\n${canonicalJson(request)}`).digest("hex");
}

/** JSON with object keys sorted at every level and undefined members left out. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
