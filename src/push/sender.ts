import { performance } from "node:perf_hooks";
import { classifyResponse, type Classification, type ClassifyInput, type FatalReason } from "./classify-response.js";
import { encryptPayload } from "./encrypt.js";
import { DEFAULT_TTL_SECONDS, resolvePushOptions, type PushOptions, type ResolvedPushOptions } from "./push-options.js";
import { isPushError, PushError, type PushErrorCode } from "./push-error.js";
import { buildEncryptedPushRequest, buildResolvedPushRequest, type PushRequest, type PushTarget } from "./request.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.js";
import { isTransportFailure, type PushTransport } from "./transport.js";
import type { TransportErrorKind } from "./transport-error.js";
import type { VapidSigner } from "./vapid.js";

export interface SendOptions extends PushOptions {
  /** This attempt's number, 1-based (the delivery engine keeps count across retries). */
  readonly attempt?: number;
  /** When the message expires (ms since epoch); defaults to now + TTL. */
  readonly ttlDeadline?: number;
}

/**
 * What became of one push: the classifier's verdict plus what was seen. `fatal` with a
 * `PushErrorCode` reason means it was refused locally (e.g. `payload_too_large`), before any
 * network call.
 */
export type PushOutcome = (
  | Exclude<Classification, { kind: "fatal" }>
  | { kind: "fatal"; reason: FatalReason | PushErrorCode; flag?: "vapid_mismatch" }
) & {
  readonly status?: number;
  readonly error?: TransportErrorKind;
  /** From the request's dispatch to the end of its (capped) response body. */
  readonly latencyMs: number;
  /** The start of the push service's answer body, for the operator's logs. */
  readonly detail?: string;
};

export interface PushSenderOptions {
  /** Signs pushes to subscriptions made with Sino's default key (and whenever no other signer is given). */
  readonly vapid: VapidSigner;
  readonly transport: PushTransport;
  /** Replaceable, e.g. by a worker pool's result; defaults to `encryptPayload`. */
  readonly encrypt?: typeof encryptPayload;
  readonly retryPolicy?: RetryPolicy;
  readonly clock?: () => number;
  readonly random?: () => number;
}

export interface PushSender {
  /**
   * Encrypts `payload` for `target` and sends it; `null` sends a push without data. `vapid`: the
   * signer of the key the subscription was made with (a site's own key); default: the sender's.
   */
  send(target: PushTarget, payload: Uint8Array | string | null, options?: SendOptions, vapid?: VapidSigner): Promise<PushOutcome>;
  /** Sends a body already encrypted for the subscription behind `endpoint`. */
  sendEncrypted(endpoint: string, body: Buffer, options?: SendOptions, vapid?: VapidSigner): Promise<PushOutcome>;
}

const DETAIL_CHARS = 200;

/** One push, end to end: build, send, classify. The unit the delivery engine calls. */
export function createPushSender(options: PushSenderOptions): PushSender {
  const encrypt = options.encrypt ?? encryptPayload;
  const clock = options.clock ?? Date.now;
  const policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
  const random = options.random ?? Math.random;

  // The options of a fan-out are one object shared by all its pushes (see the delivery engine's
  // batch pusher): checked once per object, not once per push. A bad one keeps throwing its error.
  const resolvedOptions = new WeakMap<SendOptions, ResolvedPushOptions | PushError>();
  function resolved(sendOptions: SendOptions): ResolvedPushOptions {
    let value = resolvedOptions.get(sendOptions);
    if (value === undefined) {
      try {
        value = resolvePushOptions(sendOptions);
      } catch (error) {
        if (!(error instanceof PushError)) throw error;
        value = error;
      }
      resolvedOptions.set(sendOptions, value);
    }
    if (value instanceof PushError) throw value;
    return value;
  }

  async function deliver(build: () => PushRequest, sendOptions: SendOptions): Promise<PushOutcome> {
    let request: PushRequest;
    try {
      request = build();
    } catch (error) {
      if (isPushError(error)) return { kind: "fatal", reason: error.code, latencyMs: 0 };
      throw error;
    }
    const started = performance.now();
    const result = await options.transport.send(request);
    const latencyMs = performance.now() - started;
    const now = clock();
    // Built field by field, not spread: this runs once per push at thousands per second.
    const input: ClassifyInput = {
      now,
      attempt: sendOptions.attempt ?? 1,
      ttlDeadline: sendOptions.ttlDeadline ?? now + (sendOptions.ttl ?? DEFAULT_TTL_SECONDS) * 1000,
      policy,
      random,
      ...(isTransportFailure(result) ? { error: result.error } : { status: result.status, headers: result.headers }),
    };
    const verdict: PushOutcome = Object.assign(classifyResponse(input), { latencyMs });
    if (isTransportFailure(result)) return Object.assign(verdict, { error: result.error, detail: result.message });
    Object.assign(verdict, { status: result.status });
    if (verdict.kind !== "ok" && result.body.length > 0) {
      Object.assign(verdict, { detail: result.body.toString("utf8", 0, Math.min(result.body.length, DETAIL_CHARS)) });
    }
    return verdict;
  }

  return {
    send(target, payload, sendOptions = {}, vapid = options.vapid) {
      return deliver(() => {
        const body = payload === null ? Buffer.alloc(0) : encrypt(payload, target.keys);
        return buildEncryptedPushRequest(target.endpoint, body, sendOptions, vapid, payload !== null);
      }, sendOptions);
    },
    sendEncrypted(endpoint, body, sendOptions = {}, vapid = options.vapid) {
      return deliver(() => buildResolvedPushRequest(endpoint, body, resolved(sendOptions), vapid), sendOptions);
    },
  };
}
