import type { EncryptionPool } from "../push/encryption-pool.js";
import type { Urgency } from "../push/push-options.js";
import type { PushOutcome, PushSender, SendOptions } from "../push/sender.js";
import type { DeliveryTarget } from "../store/delivery-queue-repository.js";
import type { Notification } from "../store/notifications-repository.js";
import type { VapidSigner } from "../push/vapid.js";
import type { VapidKeyRing } from "./vapid-key-ring.js";

export interface PushItem {
  readonly target: DeliveryTarget;
  /** 1 for the first try. */
  readonly attempt: number;
}

/**
 * A personalised notification's payload for one target (its person's copy, in the form the browser
 * shows), or undefined when the target is no longer one of the notification's people (re-identified
 * since): that push is not made.
 */
export type PayloadOf = (target: DeliveryTarget) => string | undefined;

export interface BatchPusher {
  /**
   * Sends `notification` to every item at once; outcomes in the items' order. Never throws for
   * one push. With `payloadOf` (a personalised notification) each target gets its own payload; without
   * it, each target gets the notification's declarative payload when its browser said it shows them
   * (and the notification has one), else the classic payload: read from the target row, no query.
   */
  push(notification: Notification, items: readonly PushItem[], now: number, payloadOf?: PayloadOf): Promise<PushOutcome[]>;
}

/**
 * A sub-batch goes to the encryption threads as one task per thread (at least this many
 * subscriptions each): every thread gets work at once, and each task's requests leave as soon as
 * it is done. Fewer, larger tasks spend less on messages between threads than fixed small chunks.
 */
const MIN_ENCRYPT_CHUNK = 25;

/**
 * A personalised push whose target is no longer one of the notification's people (a retry to a browser
 * identified as someone else since): never sent, since it would show one person another's text.
 */
const NOT_THEIRS: PushOutcome = { kind: "fatal", reason: "client_error", detail: "the subscription belongs to another person now", latencyMs: 0 };

/** The subscription's VAPID key row is gone: nothing could sign its push (never happens while it is in use). */
const NO_KEY: PushOutcome = { kind: "fatal", reason: "client_error", detail: "the VAPID key this subscription was made with is no longer stored", latencyMs: 0 };

/**
 * `keyRing`: each push is signed with the key its subscription was made with (`vapidKeyId`, a
 * site's own key); without one, every push is signed with the sender's default key.
 */
export function createBatchPusher(sender: PushSender, pool: EncryptionPool | undefined, keyRing?: VapidKeyRing): BatchPusher {
  return {
    async push(notification, items, now, payloadOf) {
      // One look-up per sub-batch (cached signers; a query only for a key this process has not seen).
      const signers = keyRing === undefined ? undefined : await keyRing.signers(items.map(({ target }) => target.vapidKeyId));
      const signerOf = (target: DeliveryTarget): VapidSigner | null | undefined =>
        signers === undefined ? undefined : (signers.get(target.vapidKeyId) ?? null);
      return pushWith(notification, items, now, payloadOf, signerOf);
    },
  };

  async function pushWith(
    notification: Notification,
    items: readonly PushItem[],
    now: number,
    payloadOf: PayloadOf | undefined,
    signerOf: (target: DeliveryTarget) => VapidSigner | null | undefined,
  ): Promise<PushOutcome[]> {
    const base = sendOptionsFor(notification, now);
    // One options object per attempt number, shared by every push of the batch (almost all are
    // first attempts): the sender resolves and checks them once per object, not once per push.
    const byAttempt = new Map<number, SendOptions>();
    const optionsFor = (attempt: number): SendOptions => {
      let options = byAttempt.get(attempt);
      if (options === undefined) byAttempt.set(attempt, (options = { ...base, attempt }));
      return options;
    };
    const declarative = notification.declarativePayload;
    if (payloadOf === undefined && (declarative === null || !items.some(({ target }) => target.declarative))) {
      return pushAll(notification.payload, items, optionsFor, signerOf);
    }
    const payloadOfTarget: PayloadOf = payloadOf ?? ((target) => (target.declarative && declarative !== null ? declarative : notification.payload));
    // The encryption pool takes one payload per task, so the targets are grouped by their
    // payload (the form their browser shows; a person's copy, which their devices share), and
    // the outcomes put back in order.
    const outcomes = new Array<PushOutcome>(items.length);
    const groups = new Map<string, number[]>();
    items.forEach(({ target }, i) => {
      const payload = payloadOfTarget(target);
      if (payload === undefined) {
        outcomes[i] = NOT_THEIRS;
        return;
      }
      const group = groups.get(payload);
      if (group === undefined) groups.set(payload, [i]);
      else group.push(i);
    });
    await Promise.all(
      Array.from(groups, async ([payload, indexes]) => {
        const results = await pushAll(payload, indexes.map((i) => items[i]!), optionsFor, signerOf);
        indexes.forEach((index, j) => (outcomes[index] = results[j]!));
      }),
    );
    return outcomes;
  }

  /** One payload to every item: encrypted on the pool's threads when there is one. */
  async function pushAll(
    payload: string,
    items: readonly PushItem[],
    optionsFor: (attempt: number) => SendOptions,
    signerOf: (target: DeliveryTarget) => VapidSigner | null | undefined,
  ): Promise<PushOutcome[]> {
    if (pool === undefined) {
      return Promise.all(
        items.map(({ target, attempt }) => {
          const vapid = signerOf(target);
          if (vapid === null) return Promise.resolve(NO_KEY);
          return sender.send({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, optionsFor(attempt), vapid);
        }),
      );
    }
    const chunks: Promise<PushOutcome[]>[] = [];
    const chunkSize = Math.max(MIN_ENCRYPT_CHUNK, Math.ceil(items.length / pool.threads));
    for (let i = 0; i < items.length; i += chunkSize) {
      const chunk = items.slice(i, i + chunkSize);
      chunks.push(
        pool.encryptBatch(
          payload,
          chunk.map(({ target }) => ({ p256dh: target.p256dh, auth: target.auth })),
        ).then((bodies) =>
          Promise.all(
            chunk.map(({ target, attempt }, j) => {
              const body = bodies[j]!;
              if (!Buffer.isBuffer(body)) {
                // Keys the browser gave that cannot be encrypted for: no retry will help.
                return Promise.resolve<PushOutcome>({ kind: "fatal", reason: body.error, latencyMs: 0 });
              }
              const vapid = signerOf(target);
              if (vapid === null) return Promise.resolve(NO_KEY);
              return sender.sendEncrypted(target.endpoint, body, optionsFor(attempt), vapid);
            }),
          ),
        ),
      );
    }
    return (await Promise.all(chunks)).flat();
  }
}

/**
 * The TTL header counts down from the notification's creation (RFC 8030 §5.2 is about how long the push
 * service keeps it): a retry an hour later asks for an hour less, so no copy outlives the message.
 */
function sendOptionsFor(notification: Notification, now: number): Omit<SendOptions, "attempt"> {
  const remaining = Math.ceil((notification.expiresAt - now) / 1000);
  const ttl = Math.max(0, Math.min(notification.ttlSeconds, remaining));
  return {
    ttl,
    ttlDeadline: notification.expiresAt,
    ...(notification.urgency === null ? {} : { urgency: notification.urgency as Urgency }),
    ...(notification.topic === null ? {} : { topic: notification.topic }),
  };
}
