import { IDEMPOTENCY_KEY_TTL_MS } from "../shared/api/notifications.js";
import type { IdempotencyKeysRepository, KeyedNotificationResult, StoredAnswer } from "../store/idempotency-keys-repository.js";
import type { CreateNotificationOptions, Notification, NotificationsRepository } from "../store/notifications-repository.js";
import { DeliveryError } from "./delivery-error.js";
import { declarativePayloadFor, payloadFor, prepareNotification, type NotificationInput } from "./notification-input.js";

/** A caller's Idempotency-Key: the same key again replays the first answer instead of sending twice. */
export interface IdempotencyRequest {
  /** Whose key: `user:<id>` or `token:<id>`. */
  readonly scope: string;
  readonly key: string;
  /** The request as the key remembers it; the same key with another request is refused by the caller. */
  readonly requestHash: string;
  /** The answer to remember with the key, made from the stored send inside its transaction. */
  readonly answer: (send: Notification) => Omit<StoredAnswer, "requestHash">;
}

export interface NotificationService {
  /** Validates, then stores the notification with its range jobs (one transaction). Workers take it from there. */
  createNotification(input: NotificationInput): Promise<Notification>;
  /**
   * The same, with the key row written in the same transaction: a key makes at most one notification, and
   * a later request with it gets the first answer (`existing`).
   */
  createNotification(input: NotificationInput, options: { readonly idempotency: IdempotencyRequest }): Promise<KeyedNotificationResult>;
  getNotification(id: number): Promise<Notification | undefined>;
  /** Throws `send_not_found`; a send already finished is returned unchanged. */
  cancelNotification(id: number): Promise<Notification>;
  /**
   * Replaces a scheduled notification with `input`, checked exactly as a new notification is (`prepareNotification`).
   * Throws `send_not_found`, or `send_not_scheduled` once it has started, finished or been cancelled.
   */
  rescheduleNotification(id: number, input: NotificationInput): Promise<Notification>;
}

export interface NotificationServiceDeps {
  readonly notifications: NotificationsRepository;
  readonly idempotencyKeys: IdempotencyKeysRepository;
  readonly clock: () => number;
  readonly jobSize: number;
  /** Told about every notification created or cancelled here (progress listeners, idle lanes). */
  readonly onChange: (send: Notification) => void;
  /** The icon of a notification that sets none (the organisation's logo), or null; none by default. */
  readonly defaultIcon?: () => Promise<string | null>;
  /**
   * SINO_PUBLIC_URL: the declarative form's links are made absolute against it. Absent (some
   * tests): no declarative form is stored, and every browser gets the classic payload.
   */
  readonly publicUrl?: string;
}

/** Both forms of a notification's push, built once its id (hence its default tag) is known. */
function payloadsOf(prepared: Parameters<typeof payloadFor>[0], publicUrl: string | undefined) {
  return {
    payloadFor: ({ id, tag }: { id: number; tag: string }) => payloadFor(prepared, tag, String(id)),
    ...(publicUrl === undefined ? {} : { declarativePayloadFor: ({ id, tag }: { id: number; tag: string }) => declarativePayloadFor(prepared, tag, String(id), publicUrl) }),
  };
}

export function createNotificationService(deps: NotificationServiceDeps): NotificationService {
  function createNotification(input: NotificationInput): Promise<Notification>;
  function createNotification(input: NotificationInput, options: { readonly idempotency: IdempotencyRequest }): Promise<KeyedNotificationResult>;
  async function createNotification(input: NotificationInput, options?: { readonly idempotency: IdempotencyRequest }): Promise<Notification | KeyedNotificationResult> {
    const defaultIcon = input.icon === undefined || input.icon === "" ? await deps.defaultIcon?.() : undefined;
    const prepared = prepareNotification(defaultIcon == null ? input : { ...input, icon: defaultIcon }, deps.publicUrl);
    const now = deps.clock();
    // The id is known only once the row exists, so the payload is made inside the transaction:
    // the service worker reports shown/clicked/closed with it.
    const storing: CreateNotificationOptions = { now, jobSize: deps.jobSize, ...payloadsOf(prepared, deps.publicUrl) };
    if (options === undefined) {
      const send = await deps.notifications.createWithJobs(prepared, storing);
      deps.onChange(send);
      return send;
    }
    const { scope, key, requestHash, answer } = options.idempotency;
    const result = await deps.idempotencyKeys.createNotificationOnce({ scope, key, requestHash, expiresAt: now + IDEMPOTENCY_KEY_TTL_MS }, prepared, storing, answer);
    if (result.outcome === "created") deps.onChange(result.send);
    return result;
  }

  return {
    createNotification,
    getNotification(id) {
      return deps.notifications.findById(id);
    },
    async cancelNotification(id) {
      const send = await deps.notifications.cancel(id, deps.clock());
      if (send === undefined) throw new DeliveryError("send_not_found", `no send ${id}`);
      deps.onChange(send);
      return send;
    },
    async rescheduleNotification(id, input) {
      const prepared = prepareNotification(input, deps.publicUrl);
      const send = await deps.notifications.reschedule(id, prepared, { now: deps.clock(), ...payloadsOf(prepared, deps.publicUrl) });
      if (send === undefined) throw new DeliveryError("send_not_found", `no send ${id}`);
      if (send === "not_scheduled") throw new DeliveryError("send_not_scheduled", `send ${id} is no longer scheduled`);
      deps.onChange(send);
      return send;
    },
  };
}
