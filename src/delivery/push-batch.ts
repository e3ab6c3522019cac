import type { EncryptionPool } from "../push/encryption-pool.js";
import type { Urgency } from "../push/push-options.js";
import type { PushOutcome, PushSender, SendOptions } from "../push/sender.js";
import type { DeliveryTarget } from "../store/delivery-queue-repository.js";
import type { Notification } from "../store/notifications-repository.js";

export interface PushItem {
  readonly target: DeliveryTarget;
  /** 1 for the first try. */
  readonly attempt: number;
}

/**
 * A personalised send's payload for one target (its person's copy, in the form the browser
 * shows), or undefined when the target is no longer one of the send's people (re-identified
 * since): that push is not made.
 */
export type PayloadOf = (target: DeliveryTarget) => string | undefined;

export interface BatchPusher {
  /**
   * Sends `notification` to every item at once; outcomes in the items' order. Never throws for
   * one push. With `payloadOf` (a personalised send) each target gets its own payload; without
   * it, each target gets the send's declarative payload when its browser said it shows them
   * (and the send has one), else the classic payload: read from the target row, no query.
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
 * A personalised push whose target is no longer one of the send's people (a retry to a browser
 * identified as someone else since): never sent, since it would show one person another's text.
 */
const NOT_THEIRS: PushOutcome = { kind: "fatal", reason: "client_error", detail: "the subscription belongs to another person now", latencyMs: 0 };

export function createBatchPusher(sender: PushSender, pool: EncryptionPool | undefined): BatchPusher {
  return {
    async push(notification, items, now, payloadOf) {
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
        return pushAll(notification.payload, items, optionsFor);
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
          const results = await pushAll(payload, indexes.map((i) => items[i]!), optionsFor);
          indexes.forEach((index, j) => (outcomes[index] = results[j]!));
        }),
      );
      return outcomes;
    },
  };

  /** One payload to every item: encrypted on the pool's threads when there is one. */
  async function pushAll(payload: string, items: readonly PushItem[], optionsFor: (attempt: number) => SendOptions): Promise<PushOutcome[]> {
    if (pool === undefined) {
      return Promise.all(
        items.map(({ target, attempt }) =>
          sender.send({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, payload, optionsFor(attempt)),
        ),
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
              return sender.sendEncrypted(target.endpoint, body, optionsFor(attempt));
            }),
          ),
        ),
      );
    }
    return (await Promise.all(chunks)).flat();
  }
}

/**
 * The TTL header counts down from the send's creation (RFC 8030 §5.2 is about how long the push
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
