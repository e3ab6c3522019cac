import type { FastifyReply, FastifyRequest } from "fastify";
import type { DeliveryEngine } from "../../../delivery/engine.js";
import { FINAL_STATUSES, NOTIFICATION_PROGRESS_EVENT } from "../../../shared/api/notifications.js";
import type { Notification } from "../../../store/notifications-repository.js";
import { presentNotification } from "../../presenters/notification.js";
import { openEventStream } from "../../sse.js";

export interface ProgressStreamOptions {
  /** How often the row is read, so progress made by OTHER processes' workers shows too. */
  readonly pollMs: number;
  /** A comment line this often keeps proxies from closing a quiet stream. */
  readonly heartbeatMs?: number;
  /** At most one event per this long while counters move (a big send checkpoints very often). */
  readonly coalesceMs?: number;
}

/**
 * Streams a send's progress as Server-Sent Events (WHATWG HTML §9.2): one `progress` event with
 * the send now, then one whenever it changes — told by this process's engine at once, and by
 * reading the row every `pollMs` — until it is final; then the stream ends. `send` is the send
 * as read when the request arrived (the route answers 404 before hijacking).
 */
export function streamProgress(
  engine: Pick<DeliveryEngine, "getNotification" | "onProgress">,
  request: FastifyRequest,
  reply: FastifyReply,
  send: Notification,
  options: ProgressStreamOptions,
): void {
  const stream = openEventStream(reply, { heartbeatMs: options.heartbeatMs });

  let last = "";
  let latest = send;
  let flushTimer: NodeJS.Timeout | undefined;
  const isFinal = (s: Notification) => FINAL_STATUSES.includes(s.status);

  const write = (s: Notification) => {
    if (stream.closed) return;
    const data = JSON.stringify(presentNotification(s));
    if (data !== last) {
      last = data;
      stream.send(NOTIFICATION_PROGRESS_EVENT, settled(s), data);
    }
    if (isFinal(s)) close();
  };

  /**
   * Settled counts only grow, so a reading with fewer settled than the last is stale (a poll that
   * started before an engine event) and is dropped: the bar never moves backwards.
   */
  const settled = (n: Notification) => n.counts.accepted + n.counts.failed + n.counts.removed + n.counts.expired;
  const offer = (s: Notification) => {
    if (stream.closed) return;
    if (!isFinal(s) && settled(s) < settled(latest)) return;
    latest = s;
    if (isFinal(s)) {
      write(s);
      return;
    }
    flushTimer ??= setTimeout(() => {
      flushTimer = undefined;
      write(latest);
    }, options.coalesceMs ?? 100);
  };

  const unsubscribe = engine.onProgress(send.id, offer);
  const poll = setInterval(() => {
    engine.getNotification(send.id).then(
      (s) => (s === undefined ? close() : offer(s)),
      (error: unknown) => request.log.warn({ err: error, send: send.id }, "progress poll failed"),
    );
  }, options.pollMs);
  function close(): void {
    stream.end();
  }
  stream.onClose(() => {
    clearTimeout(flushTimer);
    clearInterval(poll);
    unsubscribe();
  });
  write(send);
}
