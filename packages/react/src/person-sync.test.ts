import { describe, expect, it } from "vitest";
import { createPersonSync } from "./person-sync.js";

function recordingClient(refuse = false) {
  const calls: string[] = [];
  return {
    calls,
    client: {
      identify: async (id: string, signature?: string | null, tags?: Record<string, unknown>) => {
        await Promise.resolve();
        calls.push(`identify ${id} ${signature ?? "-"}${tags === undefined ? "" : ` ${JSON.stringify(tags)}`}`);
        if (refuse) throw new Error("user_signature_invalid");
      },
      forget: async () => {
        calls.push("forget");
      },
    },
  };
}

describe("createPersonSync (the provider's user prop)", () => {
  it("identifies once per id and signature, and again when either changes", async () => {
    const { client, calls } = recordingClient();
    const sync = createPersonSync(client);
    await sync.apply({ id: "ana", signature: "s1" });
    await sync.apply({ id: "ana", signature: "s1" }); // a re-render (or StrictMode's second effect)
    await sync.apply({ id: "ana", signature: "s2" });
    await sync.apply({ id: "bia", signature: "s3" });
    expect(calls).toEqual(["identify ana s1", "identify ana s2", "identify bia s3"]);
  });

  it("forgets when the prop becomes null or undefined after naming someone, and only then", async () => {
    const { client, calls } = recordingClient();
    const sync = createPersonSync(client);
    await sync.apply(undefined);
    await sync.apply(null);
    expect(calls).toEqual([]);
    await sync.apply({ id: "ana" });
    await sync.apply(null);
    await sync.apply(undefined);
    expect(calls).toEqual(["identify ana -", "forget"]);
  });

  it("keeps the order of quick changes, and goes on after a refusal", async () => {
    const { client, calls } = recordingClient(true);
    const sync = createPersonSync(client);
    void sync.apply({ id: "ana", signature: "bad" });
    void sync.apply(null);
    await sync.apply({ id: "bia", signature: "bad" });
    expect(calls).toEqual(["identify ana bad", "forget", "identify bia bad"]);
  });

  it("identifies again when the signed tags change, not when only their order does", async () => {
    const { client, calls } = recordingClient();
    const sync = createPersonSync(client);
    await sync.apply({ id: "ana", signature: "s1", tags: { plano: "premium", idade: 30 } });
    await sync.apply({ id: "ana", signature: "s1", tags: { idade: 30, plano: "premium" } });
    await sync.apply({ id: "ana", signature: "s2", tags: { plano: "básico" } });
    expect(calls).toEqual(['identify ana s1 {"plano":"premium","idade":30}', 'identify ana s2 {"plano":"básico"}']);
  });
});
