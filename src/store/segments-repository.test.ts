import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DIALECTS, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { createSegmentsRepository, isSegmentTimeout } from "./segments-repository.js";

/** Enough subscriptions with tags that a count takes well over a millisecond. */
async function seedMany(database: TestDatabase, n: number): Promise<void> {
  if (database.dialect === "postgres") {
    await sql`insert into subscriptions (endpoint, p256dh, auth, created_at, updated_at, last_seen_at, person_id)
      select 'https://push.example/' || i, 'k', 'a', 0, 0, 0, 'p' || i from generate_series(1, ${n}) i`.execute(database.db);
    await sql`insert into person_tags (person_id, key, value, updated_at) select 'p' || i, 'plano', 'premium', 0 from generate_series(1, ${n}) i`.execute(database.db);
  } else {
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n})
      insert into subscriptions (endpoint, p256dh, auth, created_at, updated_at, last_seen_at, person_id) select 'https://push.example/' || i, 'k', 'a', 0, 0, 0, 'p' || i from n`.execute(database.db);
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n})
      insert into person_tags (person_id, key, value, updated_at) select 'p' || i, 'plano', 'premium', 0 from n`.execute(database.db);
  }
}

for (const dialect of DIALECTS) {
  describe(`segment counts on ${dialect}`, () => {
    let database: TestDatabase;
    useTestDatabase(dialect, (created) => (database = created));

    const tree = { or: [{ tag: "plano", op: "eq", value: "premium" }, { not: { tag: "optout", op: "exists" } }] } as const;

    it(dialect === "postgres" ? "stops a count past the statement timeout with SegmentTimeoutError" : "counts without a statement timeout (SQLite has none)", async () => {
      await seedMany(database, 50_000);
      const hurried = createSegmentsRepository(database, { statementTimeoutMs: 1 });
      if (dialect === "postgres") {
        const error = await hurried.countSegment(tree, "trusted", 0).catch((e: unknown) => e);
        expect(isSegmentTimeout(error)).toBe(true);
      } else {
        expect(await hurried.countSegment(tree, "trusted", 0)).toEqual({ subscriptions: 50_000, people: 50_000 });
      }
      // The timeout was local to the count's transaction: the next statement runs as usual.
      expect(await createSegmentsRepository(database).countSegment(tree, "trusted", 0)).toEqual({ subscriptions: 50_000, people: 50_000 });
    });

    it("counts people by their exact ids: ids that differ only in case, accents or spaces are different people", async () => {
      // PostgreSQL counts distinct people in byte order (collate "C"); the count must be the one
      // the database's own collation and SQLite give.
      const ids = ["josé", "jose", "José", "JOSÉ", "jose ", "ｊｏｓｅ", "jose\u0301"];
      for (const [i, personId] of [...ids, "josé", "jose"].entries()) {
        await database.db
          .insertInto("subscriptions")
          .values({ endpoint: `https://push.example/${i}`, p256dh: "k", auth: "a", created_at: 0, updated_at: 0, last_seen_at: 0, person_id: personId })
          .execute();
      }
      await database.db.insertInto("subscriptions").values({ endpoint: "https://push.example/anonymous", p256dh: "k", auth: "a", created_at: 0, updated_at: 0, last_seen_at: 0 }).execute();
      await database.db
        .insertInto("person_tags")
        .values(ids.map((personId) => ({ person_id: personId, key: "plano", value: "premium", updated_at: 0 })))
        .execute();
      const repository = createSegmentsRepository(database);
      expect(await repository.countSegment({ tag: "plano", op: "eq", value: "premium" }, "trusted", 0)).toEqual({ subscriptions: 9, people: 7 });
      // The anonymous subscription counts as a subscription, not as a person.
      expect(await repository.countSegment({ not: { tag: "optout", op: "exists" } }, "trusted", 0)).toEqual({ subscriptions: 10, people: 7 });
    });

    if (dialect === "postgres") {
      it("estimates a tag condition from its key and value together, so the count's plan fits the sets' sizes", async () => {
        // 5,000 people with 5 tags each; `cidade = Campinas` on 70 % of them. Column by column the
        // planner would multiply key = cidade (1/5) by value = Campinas (14 % of all rows): 700
        // rows, and pick nested loops for a set of 3,500 (migration 0013's statistics).
        const people = sql`generate_series(1, 5000) as s(i)`;
        for (const [key, value] of [["cidade", sql`case when i % 10 < 7 then 'Campinas' else 'Sorocaba' end`], ["plano", sql`'premium'`], ["bairro", sql`'Centro'`], ["idade", sql`'30'`], ["newsletter", sql`null`]] as const) {
          await sql`insert into person_tags (person_id, key, value, updated_at) select 'p' || i, ${key}, ${value}, 0 from ${people}`.execute(database.db);
        }
        await sql`analyze person_tags`.execute(database.db);
        const explained = await sql<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>`explain (format json) select person_id from person_tags where key = 'cidade' and value = 'Campinas'`.execute(database.db);
        const estimate = explained.rows[0]!["QUERY PLAN"][0].Plan["Plan Rows"];
        expect(estimate).toBeGreaterThan(3000);
        expect(estimate).toBeLessThan(4000);
      });
    }
  });
}
