import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "./database.js";

/** SQLite keeps statements prepared by their SQL text: what must still hold. */
describe("SQLite statement cache", () => {
  let database: Database | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await database?.destroy();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  function open(): Database {
    dir = mkdtempSync(join(tmpdir(), "sino-stmt-"));
    return (database = createDatabase({ url: `sqlite:${join(dir, "t.db")}` }));
  }

  it("gives each run of the same SQL its own parameters and fresh rows", async () => {
    const { db } = open();
    await sql`create table t (id integer primary key, name text not null)`.execute(db);
    for (const name of ["a", "b", "c"]) await sql`insert into t (name) values (${name})`.execute(db);
    const byName = (name: string) => sql<{ id: number }>`select id from t where name = ${name}`.execute(db);
    expect((await byName("b")).rows).toEqual([{ id: 2 }]);
    expect((await byName("c")).rows).toEqual([{ id: 3 }]);
    await sql`delete from t where name = ${"c"}`.execute(db);
    expect((await byName("c")).rows).toEqual([]);
  });

  it("sees a schema change made after a statement was kept", async () => {
    const { db } = open();
    await sql`create table t (id integer primary key)`.execute(db);
    await sql`insert into t (id) values (1)`.execute(db);
    const all = () => sql<Record<string, unknown>>`select * from t`.execute(db);
    expect((await all()).rows).toEqual([{ id: 1 }]);
    await sql`alter table t add column label text not null default 'x'`.execute(db);
    expect((await all()).rows).toEqual([{ id: 1, label: "x" }]);
  });

  it("keeps working inside and after transactions, including a rolled-back one", async () => {
    const { db } = open();
    await sql`create table t (id integer primary key)`.execute(db);
    const count = async () => Number((await sql<{ n: number }>`select count(*) as n from t`.execute(db)).rows[0]!.n);
    await db.transaction().execute(async (trx) => {
      await sql`insert into t (id) values (1)`.execute(trx);
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`insert into t (id) values (2)`.execute(trx);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await count()).toBe(1);
  });
});
