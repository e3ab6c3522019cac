import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../test/support/db.js";
import { aSubscriptionInput as aSubscription } from "../../test/support/subscriptions.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { createSubscriptionsRepository, type SubscriptionsRepository } from "./subscriptions-repository.js";

for (const dialect of DIALECTS) {
  describe(`subscriptions repository on ${dialect}`, () => {
    let repo: SubscriptionsRepository;

    useTestDatabase(dialect, (database) => {
      repo = createSubscriptionsRepository(database);
    });

    it("creates a subscription and reads it back with numbers for id and times", async () => {
      const input = aSubscription();
      const result = await repo.register(input, 1_700_000_000_123);
      expect(result.outcome).toBe("created");
      const found = await repo.findByEndpoint(input.endpoint);
      expect(found).toEqual({
        id: expect.any(Number),
        endpoint: input.endpoint,
        p256dh: input.p256dh,
        auth: input.auth,
        userAgent: input.userAgent,
        createdAt: 1_700_000_000_123,
        updatedAt: 1_700_000_000_123,
        lastSeenAt: 1_700_000_000_123,
        // No site given: Sino's own, the built-in site.
        siteId: 1,
        // Anonymous until identified.
        personId: null,
        identifiedAt: null,
      });
      expect(await repo.count()).toBe(1);
    });

    it("keeps one row when the same endpoint registers again, and refreshes last_seen_at", async () => {
      const input = aSubscription();
      const first = await repo.register(input, 1000);
      const second = await repo.register({ ...input, userAgent: "other" }, 2000);
      expect(second.outcome).toBe("existing");
      if (first.outcome !== "created" || second.outcome !== "existing") throw new Error("unexpected");
      expect(second.subscription.id).toBe(first.subscription.id);
      expect(second.subscription.createdAt).toBe(1000);
      expect(second.subscription.updatedAt).toBe(1000);
      expect(second.subscription.lastSeenAt).toBe(2000);
      expect(second.subscription.userAgent).toBe("other");
      expect(await repo.count()).toBe(1);
    });

    it("updates p256dh and updated_at when the owner (same auth) sends a new key", async () => {
      const input = aSubscription();
      await repo.register(input, 1000);
      const p256dh = randomBytes(65).toString("base64url");
      const result = await repo.register({ ...input, p256dh }, 3000);
      if (result.outcome !== "existing") throw new Error(`unexpected ${result.outcome}`);
      expect(result.subscription.p256dh).toBe(p256dh);
      expect(result.subscription.updatedAt).toBe(3000);
    });

    it("refuses to overwrite the keys of a known endpoint without its auth secret", async () => {
      const input = aSubscription();
      await repo.register(input, 1000);
      const attacker = aSubscription({ endpoint: input.endpoint });
      expect(await repo.register(attacker, 2000)).toEqual({ outcome: "auth_mismatch" });
      const stored = await repo.findByEndpoint(input.endpoint);
      expect(stored?.auth).toBe(input.auth);
      expect(stored?.p256dh).toBe(input.p256dh);
    });

    it("creates exactly one row when the same endpoint registers concurrently", async () => {
      const input = aSubscription();
      const results = await Promise.all(Array.from({ length: 8 }, () => repo.register(input, 5000)));
      expect(results.filter((r) => r.outcome === "created")).toHaveLength(1);
      expect(results.filter((r) => r.outcome === "existing")).toHaveLength(7);
      expect(await repo.count()).toBe(1);
    });

    it("removes a subscription given its auth secret", async () => {
      const input = aSubscription();
      await repo.register(input, 1000);
      expect(await repo.removeWithProof(input.endpoint, input.auth)).toBe("removed");
      expect(await repo.findByEndpoint(input.endpoint)).toBeUndefined();
      expect(await repo.count()).toBe(0);
    });

    it("keeps the row when the auth secret is wrong", async () => {
      const input = aSubscription();
      await repo.register(input, 1000);
      const wrong = randomBytes(16).toString("base64url");
      expect(await repo.removeWithProof(input.endpoint, wrong)).toBe("auth_mismatch");
      expect(await repo.removeWithProof(input.endpoint, "")).toBe("auth_mismatch");
      expect(await repo.count()).toBe(1);
    });

    it("answers not_found for an unknown endpoint", async () => {
      expect(await repo.removeWithProof("https://fcm.googleapis.com/fcm/send/nope", "x")).toBe("not_found");
    });

    it("streams every subscription in id order, page by page", async () => {
      const inputs = Array.from({ length: 7 }, () => aSubscription());
      for (const [i, input] of inputs.entries()) await repo.register(input, 1000 + i);
      // A removed row leaves a gap that paging must step over.
      await repo.removeWithProof(inputs[3]!.endpoint, inputs[3]!.auth);

      const seen: string[] = [];
      let after = 0;
      for (;;) {
        const page = await repo.listAfter(after, 3);
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(3);
        seen.push(...page.map((s) => s.endpoint));
        const ids = page.map((s) => s.id);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
        after = page[page.length - 1]!.id;
      }
      expect(seen).toEqual(inputs.filter((_, i) => i !== 3).map((s) => s.endpoint));
    });

    it("never reuses the id of a deleted row", async () => {
      const a = aSubscription();
      const first = await repo.register(a, 1);
      await repo.removeWithProof(a.endpoint, a.auth);
      const second = await repo.register(aSubscription(), 2);
      if (first.outcome !== "created" || second.outcome !== "created") throw new Error("unexpected");
      expect(second.subscription.id).toBeGreaterThan(first.subscription.id);
    });
  });
}
