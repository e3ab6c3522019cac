import { describe, expect, it } from "vitest";
import type { PushOutcome } from "../push/sender.js";
import type { DeliveryTarget } from "../store/delivery-queue-repository.js";
import type { PushItem } from "./push-batch.js";
import { createPushCounter, type DeliveryMetrics, type PushOutcomeClass } from "./push-metrics.js";

function recorder(): { metrics: DeliveryMetrics; calls: Array<[string, PushOutcomeClass, number]> } {
  const calls: Array<[string, PushOutcomeClass, number]> = [];
  return {
    calls,
    metrics: {
      pushes: { inc: ({ host, outcome }, value) => calls.push([host, outcome, value]) },
      databaseErrors: { inc: () => undefined },
    },
  };
}

function item(endpoint: string): PushItem {
  return { target: { endpoint } as DeliveryTarget, attempt: 1 };
}

const OK: PushOutcome = { kind: "ok", latencyMs: 1 };
const GONE: PushOutcome = { kind: "gone", latencyMs: 1 };
const RETRY: PushOutcome = { kind: "retry", at: 0, reason: "unavailable", latencyMs: 1 };
const FATAL: PushOutcome = { kind: "fatal", reason: "bad_request", latencyMs: 1 };

describe("createPushCounter", () => {
  it("adds a batch's pushes to the counter once per host and outcome", () => {
    const { metrics, calls } = recorder();
    const count = createPushCounter(metrics);
    const fcm = (n: number) => item(`https://fcm.googleapis.com/fcm/send/${n}`);
    const moz = (n: number) => item(`https://updates.push.services.mozilla.com/wpush/v2/${n}`);
    count([fcm(1), fcm(2), moz(3), fcm(4), moz(5), fcm(6)], [OK, OK, OK, GONE, RETRY, FATAL]);
    expect(calls.sort()).toEqual([
      ["fcm.googleapis.com", "accepted", 2],
      ["fcm.googleapis.com", "failed", 1],
      ["fcm.googleapis.com", "removed", 1],
      ["updates.push.services.mozilla.com", "accepted", 1],
      ["updates.push.services.mozilla.com", "retry", 1],
    ]);
    // The next batch starts from zero.
    calls.length = 0;
    count([moz(7)], [OK]);
    expect(calls).toEqual([["updates.push.services.mozilla.com", "accepted", 1]]);
  });

  it("tells a host from one that merely starts like it, and keeps the port", () => {
    const { metrics, calls } = recorder();
    const count = createPushCounter(metrics);
    count([item("https://push.example/a"), item("https://push.example.evil/b"), item("https://127.0.0.1:8443/push/c")], [OK, OK, OK]);
    expect(calls.map(([host]) => host).sort()).toEqual(["127.0.0.1:8443", "push.example", "push.example.evil"]);
  });

  it("puts hosts past the 32nd under `other`, so endpoints cannot create unbounded series", () => {
    const { metrics, calls } = recorder();
    const count = createPushCounter(metrics);
    const items = Array.from({ length: 40 }, (_, i) => item(`https://push${i}.example/x`));
    count(items, items.map(() => OK));
    expect(calls.filter(([host]) => host !== "other")).toHaveLength(32);
    expect(calls.find(([host]) => host === "other")).toEqual(["other", "accepted", 8]);
  });
});
