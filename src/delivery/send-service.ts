import { IDEMPOTENCY_KEY_TTL_MS } from "../shared/api/notifications.js";
import type { IdempotencyKeysRepository, KeyedSendResult, StoredAnswer } from "../store/idempotency-keys-repository.js";
import type { CreateSendOptions, Notification, NotificationsRepository } from "../store/notifications-repository.js";
import { DeliveryError } from "./delivery-error.js";
import { declarativePayloadFor, payloadFor, prepareSend, type SendInput } from "./send-input.js";

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

export interface SendService {
  /** Validates, then stores the send with its range jobs (one transaction). Workers take it from there. */
  createSend(input: SendInput): Promise<Notification>;
  /**
   * The same, with the key row written in the same transaction: a key makes at most one send, and
   * a later request with it gets the first answer (`existing`).
   */
  createSend(input: SendInput, options: { readonly idempotency: IdempotencyRequest }): Promise<KeyedSendResult>;
  getSend(id: number): Promise<Notification | undefined>;
  /** Throws `send_not_found`; a send already finished is returned unchanged. */
  cancelSend(id: number): Promise<Notification>;
  /**
   * Replaces a scheduled send with `input`, checked exactly as a new send is (`prepareSend`).
   * Throws `send_not_found`, or `send_not_scheduled` once it has started, finished or been cancelled.
   */
  rescheduleSend(id: number, input: SendInput): Promise<Notification>;
}

export interface SendServiceDeps {
  readonly notifications: NotificationsRepository;
  readonly idempotencyKeys: IdempotencyKeysRepository;
  readonly clock: () => number;
  readonly jobSize: number;
  /** Told about every send created or cancelled here (progress listeners, idle lanes). */
  readonly onChange: (send: Notification) => void;
  /** The icon of a send that sets none (the organisation's logo), or null; none by default. */
  readonly defaultIcon?: () => Promise<string | null>;
  /**
   * SINO_PUBLIC_URL: the declarative form's links are made absolute against it. Absent (some
   * tests): no declarative form is stored, and every browser gets the classic payload.
   */
  readonly publicUrl?: string;
}

/** Both forms of a send's push, built once its id (hence its default tag) is known. */
function payloadsOf(prepared: Parameters<typeof payloadFor>[0], publicUrl: string | undefined) {
  return {
    payloadFor: ({ id, tag }: { id: number; tag: string }) => payloadFor(prepared, tag, String(id)),
    ...(publicUrl === undefined ? {} : { declarativePayloadFor: ({ id, tag }: { id: number; tag: string }) => declarativePayloadFor(prepared, tag, String(id), publicUrl) }),
  };
}

export function createSendService(deps: SendServiceDeps): SendService {
  function createSend(input: SendInput): Promise<Notification>;
  function createSend(input: SendInput, options: { readonly idempotency: IdempotencyRequest }): Promise<KeyedSendResult>;
  async function createSend(input: SendInput, options?: { readonly idempotency: IdempotencyRequest }): Promise<Notification | KeyedSendResult> {
    const defaultIcon = input.icon === undefined || input.icon === "" ? await deps.defaultIcon?.() : undefined;
    const prepared = prepareSend(defaultIcon == null ? input : { ...input, icon: defaultIcon }, deps.publicUrl);
    const now = deps.clock();
    // The id is known only once the row exists, so the payload is made inside the transaction:
    // the service worker reports shown/clicked/closed with it.
    const storing: CreateSendOptions = { now, jobSize: deps.jobSize, ...payloadsOf(prepared, deps.publicUrl) };
    if (options === undefined) {
      const send = await deps.notifications.createWithJobs(prepared, storing);
      deps.onChange(send);
      return send;
    }
    const { scope, key, requestHash, answer } = options.idempotency;
    const result = await deps.idempotencyKeys.createSendOnce({ scope, key, requestHash, expiresAt: now + IDEMPOTENCY_KEY_TTL_MS }, prepared, storing, answer);
    if (result.outcome === "created") deps.onChange(result.send);
    return result;
  }

  return {
    createSend,
    getSend(id) {
      return deps.notifications.findById(id);
    },
    async cancelSend(id) {
      const send = await deps.notifications.cancel(id, deps.clock());
      if (send === undefined) throw new DeliveryError("send_not_found", `no send ${id}`);
      deps.onChange(send);
      return send;
    },
    async rescheduleSend(id, input) {
      const prepared = prepareSend(input, deps.publicUrl);
      const send = await deps.notifications.reschedule(id, prepared, { now: deps.clock(), ...payloadsOf(prepared, deps.publicUrl) });
      if (send === undefined) throw new DeliveryError("send_not_found", `no send ${id}`);
      if (send === "not_scheduled") throw new DeliveryError("send_not_scheduled", `send ${id} is no longer scheduled`);
      deps.onChange(send);
      return send;
    },
  };
}
