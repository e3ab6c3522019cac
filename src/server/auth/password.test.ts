import { describe, expect, it } from "vitest";
import { createPasswordHasher } from "./password.js";

describe("password hashing", () => {
  const hasher = createPasswordHasher();

  it("hashes with argon2id at OWASP's parameters or stronger, salted", async () => {
    const a = await hasher.hash("correct horse battery staple");
    const b = await hasher.hash("correct horse battery staple");
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(a);
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(19456);
    expect(Number(match![2])).toBeGreaterThanOrEqual(2);
    expect(Number(match![3])).toBe(1);
    expect(a).not.toBe(b);
  });

  it("verifies the right password only, unicode and spaces included", async () => {
    const stored = await hasher.hash("  senha com acentuação ção  ");
    expect(await hasher.verify(stored, "  senha com acentuação ção  ")).toBe(true);
    expect(await hasher.verify(stored, "senha com acentuação ção")).toBe(false);
  });

  it("treats a malformed stored hash as a failed verification, not an error", async () => {
    expect(await hasher.verify("not-a-hash", "whatever")).toBe(false);
  });

  it("fails verifyNothing whatever the password", async () => {
    expect(await hasher.verifyNothing("")).toBe(false);
    expect(await hasher.verifyNothing("anything")).toBe(false);
  });
});
