import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { createUsersRepository, type UsersRepository } from "./users-repository.js";

for (const dialect of DIALECTS) {
  describe(`users repository on ${dialect}`, () => {
    let repo: UsersRepository;

    useTestDatabase(dialect, (database) => {
      repo = createUsersRepository(database);
    });

    const user = (n: number) => ({ name: `U${n}`, email: `u${n}@x.com`, passwordHash: "$argon2id$fake" });

    it("creates exactly one first admin when many set-ups race", async () => {
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => repo.createFirstAdmin(user(i), 1000 + i)));
      expect(results.filter((r) => r.outcome === "created")).toHaveLength(1);
      expect(await repo.count()).toBe(1);
    });

    it("refuses the set-up once any user exists, even one made without it (sino admin create)", async () => {
      await repo.create({ ...user(1), role: "admin" }, 1);
      expect((await repo.createFirstAdmin(user(2), 2)).outcome).toBe("setup_already_done");
      expect(await repo.count()).toBe(1);
    });

    it("keeps one admin when two connections remove the only two admins at once", async () => {
      const a = await repo.create({ ...user(1), role: "admin" }, 1);
      const b = await repo.create({ ...user(2), role: "admin" }, 1);
      if (a.outcome !== "created" || b.outcome !== "created") throw new Error("setup");
      const results = await Promise.all([repo.remove(a.user.id), repo.remove(b.user.id)]);
      expect(results.sort()).toEqual(["last_admin", "removed"]);
      expect((await repo.list()).filter((u) => u.role === "admin")).toHaveLength(1);
    });

    it("keeps one admin when both are demoted at once", async () => {
      const a = await repo.create({ ...user(1), role: "admin" }, 1);
      const b = await repo.create({ ...user(2), role: "admin" }, 1);
      if (a.outcome !== "created" || b.outcome !== "created") throw new Error("setup");
      const results = await Promise.all([repo.update(a.user.id, { role: "publisher" }, 2), repo.update(b.user.id, { role: "publisher" }, 2)]);
      expect(results.map((r) => r.outcome).sort()).toEqual(["last_admin", "updated"]);
    });

    it("reports a taken email as an outcome, not an error", async () => {
      expect((await repo.create({ ...user(1), role: "publisher" }, 1)).outcome).toBe("created");
      expect((await repo.create({ ...user(1), role: "admin" }, 2)).outcome).toBe("email_taken");
    });
  });
}
