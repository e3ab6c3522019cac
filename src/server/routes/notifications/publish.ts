import { createHash } from "node:crypto";
import { isDeliveryError, type DeliveryErrorCode } from "../../../delivery/delivery-error.js";
import type { DeliveryEngine } from "../../../delivery/engine.js";
import type { NotificationInput } from "../../../delivery/notification-input.js";
import {
  NOTIFICATION_LIMITS,
  type AudiencePerson,
  type CreateNotificationResponse,
  type NotificationAudience,
  type NotificationCategory,
  type NotificationUrgency,
} from "../../../shared/api/notifications.js";
import type { ErrorCode } from "../../../shared/errors.js";
import type { Notification, NotificationsRepository, NotificationPerson } from "../../../store/notifications-repository.js";
import type { SubscriptionsRepository } from "../../../store/subscriptions-repository.js";
import type { Principal } from "../../auth/principal.js";
import { apiError, payloadTooLargeError } from "../../errors.js";
import type { NotificationAction } from "../../../shared/api/notifications.js";
import { presentNotification } from "../../presenters/notification.js";
import { resolveAudience, type AudienceDeps, type AudienceFields } from "./resolve-audience.js";
import { formatSegment } from "../../../shared/segments/format.js";
import type { SavedSegmentsRepository } from "../../../store/saved-segments-repository.js";
import type { SegmentAudience } from "../../../store/segment-audience.js";
import { segmentTreeOf } from "../saved-segments/segment-expression.js";
import { checkExempt } from "./delivery-gates.js";

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
  readonly category?: NotificationCategory | undefined;
  readonly collapseKey?: string | undefined;
  readonly sendAt?: string | undefined;
  /** `hidden`: not published on Avisos. */
  readonly notice?: "public" | "hidden" | undefined;
  readonly actions?: readonly NotificationAction[] | undefined;
  readonly renotify?: boolean | undefined;
  readonly requireInteraction?: boolean | undefined;
  readonly silent?: boolean | undefined;
  readonly badge?: string | undefined;
  readonly appBadge?: number | undefined;
  readonly data?: unknown;
  /** gates: admin only (checked in `publish` and the edit route). */
  readonly exempt?: boolean | undefined;
  readonly reengagement?: boolean | undefined;
}

export interface PublishDeps extends AudienceDeps {
  readonly engine: Pick<DeliveryEngine, "createNotification">;
  readonly subscriptions: Pick<SubscriptionsRepository, "findByEndpoint">;
  /** Who a `users` send reaches: the ids with no subscription, and (scheduled) the count now. */
  readonly notifications: Pick<NotificationsRepository, "peopleWithoutSubscriptions" | "countTargets">;
  /** A `segment` audience's saved segment. */
  readonly savedSegments: Pick<SavedSegmentsRepository, "findById">;
  /** SINO_PUBLIC_URL: an http link on this origin is "same-origin", hence allowed. */
  readonly publicUrl: string;
  readonly now: () => number;
}

export interface PublishAnswer {
  readonly statusCode: number;
  readonly body: CreateNotificationResponse;
  /** The answer of an earlier request with the same Idempotency-Key. */
  readonly replayed: boolean;
}

/** A send's refusals point into its body. */
const BODY_FIELDS: AudienceFields = { channels: "audience.channels", sites: "audience.sites" };

/** A send scheduled up to this long ago is sent now: the clocks of client and server differ a little. */
const PAST_TOLERANCE_MS = 60_000;

const DELIVERY_ERRORS: Record<DeliveryErrorCode, { code: ErrorCode; field?: string }> = {
  title_required: { code: "title_required", field: "title" },
  payload_too_large: { code: "payload_too_large" },
  ttl_invalid: { code: "ttl_invalid", field: "ttl" },
  urgency_invalid: { code: "urgency_invalid", field: "urgency" },
  topic_invalid: { code: "validation_failed" },
  send_not_found: { code: "notification_not_found" },
  placeholder_missing: { code: "placeholder_missing" },
  placeholder_not_allowed: { code: "placeholder_not_allowed" },
  title_too_long: { code: "title_too_long", field: "title" },
  body_too_long: { code: "body_too_long", field: "body" },
  link_invalid: { code: "link_invalid", field: "url" },
  text_control_characters: { code: "text_control_characters" },
  send_not_scheduled: { code: "send_not_scheduled" },
};

/** Categories that may only go to one person's (or one browser's) subscriptions. */
const PERSONAL_AUDIENCES: readonly NotificationAudience["type"][] = ["users", "endpoint"];

/** Rethrows the engine's coded refusal as the API's error. */
export function toApiFailure(error: unknown): never {
  if (isDeliveryError(error)) {
    if (error.code === "payload_too_large" && error.details !== undefined) throw payloadTooLargeError(error.details, { cause: error });
    const mapped = DELIVERY_ERRORS[error.code];
    // The engine names the placeholder or the field a person's copy broke.
    throw apiError(mapped.code, error.field ?? mapped.field, { cause: error });
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
  checkExempt(principal, request.exempt); // gates
  const input = await toSendInput(deps, request, deps.now());
  const reach = await reachOf(deps, input);
  const present = (send: Notification): CreateNotificationResponse => ({
    notification: presentNotification(send),
    targeted: reach.scheduledTargets ?? send.counts.queued,
    usersWithoutSubscriptions: reach.withoutSubscriptions,
  });
  if (idempotencyKey === undefined) {
    const send = await deps.engine.createNotification(input).catch(toApiFailure);
    return { statusCode: 201, body: present(send), replayed: false };
  }
  const requestHash = hashRequest(route, request);
  const result = await deps.engine
    .createNotification(input, {
      idempotency: {
        scope: keyScopeOf(principal),
        key: idempotencyKey,
        requestHash,
        answer: (send) => ({ statusCode: 201, response: JSON.stringify(present(send)) }),
      },
    })
    .catch(toApiFailure);
  const body = JSON.parse(result.answer.response) as CreateNotificationResponse;
  if (result.outcome === "created") return { statusCode: 201, body, replayed: false };
  if (result.answer.requestHash !== requestHash) throw apiError("idempotency_key_reused");
  return { statusCode: result.answer.statusCode, body, replayed: true };
}

/** A send request as the engine takes it, with the API's checks (links, schedule, audience) made. */
export async function toSendInput(deps: PublishDeps, request: PublishRequest, now: number): Promise<NotificationInput> {
  const origin = new URL(deps.publicUrl).origin;
  // https anywhere, a path here, or http only on this very origin (a plain-http install).
  const foreignHttp = (value: string | undefined) => value !== undefined && value.startsWith("http:") && new URL(value).origin !== origin;
  for (const field of ["url", "icon", "image"] as const) {
    if (foreignHttp(request[field])) throw apiError("link_invalid", field);
  }
  if (foreignHttp(request.badge)) throw apiError("badge_invalid", "badge");
  request.actions?.forEach((action, index) => {
    if (foreignHttp(action.url)) throw apiError("action_link_invalid", `actions.${index}.url`);
  });
  let sendAt: number | undefined;
  if (request.sendAt !== undefined) {
    const at = Date.parse(request.sendAt);
    if (Number.isNaN(at)) throw apiError("send_at_invalid", "sendAt");
    if (at < now - PAST_TOLERANCE_MS) throw apiError("send_at_past", "sendAt");
    if (at > now + NOTIFICATION_LIMITS.scheduleDays * 86_400_000) throw apiError("send_at_too_far", "sendAt");
    if (at > now) sendAt = at;
  }
  const category = request.category ?? "marketing";
  if (category === "transactional" && !PERSONAL_AUDIENCES.includes(request.audience.type)) throw apiError("transactional_audience", "category");
  let audience: NotificationInput["audience"];
  let people: NotificationPerson[] | undefined;
  if (request.audience.type === "users") {
    people = foldPeople(request.audience.users);
    const resolved = await resolveAudience(deps, { sites: request.audience.sites }, BODY_FIELDS);
    const sites = resolved.audience.sites;
    audience = { kind: "people", people: people.length, ...(sites === undefined ? {} : { sites }) };
  } else if (request.audience.type === "endpoint") {
    const subscription = await deps.subscriptions.findByEndpoint(request.audience.endpoint);
    if (subscription === undefined) throw apiError("subscription_not_found", "audience.endpoint");
    // The stored spelling: the send is matched against the row, whatever spelling was asked for.
    audience = { kind: "endpoint", endpoint: subscription.endpoint };
  } else if (request.audience.type === "segment") {
    audience = await segmentAudienceOf(deps, request.audience);
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
    ...(request.badge === undefined || request.badge === "" ? {} : { badge: request.badge }),
    ...(request.actions === undefined || request.actions.length === 0 ? {} : { actions: request.actions }),
    ...(request.renotify === true ? { renotify: true } : {}),
    ...(request.requireInteraction === true ? { requireInteraction: true } : {}),
    ...(request.silent === true ? { silent: true } : {}),
    ...(request.appBadge === undefined ? {} : { appBadge: request.appBadge }),
    ...(request.data === undefined || request.data === null ? {} : { data: request.data }),
    ...(request.exempt === true ? { exempt: true } : {}), // gates
    ...(request.reengagement === true ? { reengagement: true } : {}),
    urgency: request.urgency,
    ttlSeconds: request.ttl,
    audience,
    ...(people === undefined ? {} : { people }),
    category,
    ...(request.collapseKey === undefined ? {} : { collapseKey: request.collapseKey }),
    ...(sendAt === undefined ? {} : { sendAt }),
    // A test to one browser is never a notice: stored hidden, whatever was asked. A send to people
    // speaks to them (their order, their appointment): off the public page unless asked for.
    ...(audience.kind === "endpoint" ? { notice: "hidden" as const } : { notice: request.notice ?? (audience.kind === "people" ? "hidden" : "public") }),
  };
}

/**
 * A `segment` audience as stored: a saved segment by id (its expression is read when the send
 * starts), or an expression written for the send, checked now.
 */
async function segmentAudienceOf(deps: PublishDeps, asked: Extract<NotificationAudience, { type: "segment" }>): Promise<SegmentAudience> {
  const sites = (await resolveAudience(deps, { sites: asked.sites }, BODY_FIELDS)).audience.sites;
  const narrowed = sites === undefined ? {} : { sites };
  if (asked.segment !== undefined) {
    const saved = await deps.savedSegments.findById(Number(asked.segment));
    if (saved === undefined) throw apiError("segment_not_found", "audience.segment");
    return { kind: "segment", segmentId: saved.id, name: saved.name, tree: null, text: null, tagKinds: saved.tagKinds, at: null, ...narrowed };
  }
  const tree = segmentTreeOf(asked.expression!, "audience.expression");
  return { kind: "segment", segmentId: null, name: null, tree, text: formatSegment(tree), tagKinds: asked.tagKinds ?? "trusted", at: null, ...narrowed };
}

/** A `users` audience's entries, each id once, in first-seen order; the last `data` given wins. */
function foldPeople(entries: readonly AudiencePerson[]): NotificationPerson[] {
  const people = new Map<string, NotificationPerson["data"]>();
  for (const entry of entries) {
    const id = typeof entry === "string" ? entry : entry.id;
    const data = typeof entry === "string" ? undefined : entry.data;
    people.set(id, data ?? people.get(id) ?? null);
  }
  return Array.from(people, ([id, data]) => ({ id, data }));
}

/**
 * What the create answer says beyond the send: a `users` send's ids with no subscription (the
 * caller falls back to e-mail or SMS), and for a scheduled send the subscriptions it would reach
 * now (its own count is taken when it goes out).
 */
async function reachOf(deps: PublishDeps, input: NotificationInput): Promise<{ withoutSubscriptions: string[]; scheduledTargets?: number }> {
  const audience = input.audience ?? { kind: "everyone" };
  const ids = input.people?.map((person) => person.id) ?? [];
  const sites = audience.kind === "endpoint" ? [] : (audience.sites ?? []);
  const withoutSubscriptions = audience.kind === "people" ? await deps.notifications.peopleWithoutSubscriptions(ids, sites) : [];
  if (input.sendAt === undefined || input.sendAt <= deps.now()) return { withoutSubscriptions };
  return { withoutSubscriptions, scheduledTargets: await deps.notifications.countTargets(audience, ids) };
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
