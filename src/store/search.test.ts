import { Migrator, sql, type Kysely, type Migration } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabaseLocation, openTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { aNewNotification, insertPlaceholderSubscriptions } from "../../test/support/delivery.js";
import type { Database } from "./database.js";
import { migrateToLatest } from "./migrate.js";
import { MIGRATIONS } from "./migrations/index.js";
import { createNotificationsRepository } from "./notifications-repository.js";
import { createPeopleRepository } from "./people-repository.js";
import { createNotificationHistoryRepository } from "./notification-history-repository.js";
import { createSubscribersRepository } from "./subscribers-repository.js";
import { createSubscriptionsRepository } from "./subscriptions-repository.js";

const page = { offset: 0, limit: 50 };

for (const dialect of DIALECTS) {
  describe(`search without accents on ${dialect}`, () => {
    let database: TestDatabase;

    useTestDatabase(dialect, (created) => (database = created));

    const send = (title: string, body: string | null = null) =>
      createNotificationsRepository(database).createWithJobs(aNewNotification({ title, body }), { now: 1, jobSize: 100, payloadFor: () => "{}" });
    const titles = async (query: string) => (await createNotificationHistoryRepository(database).list({ query, ...page })).sends.map((s) => s.title).sort();

    it("finds sends whatever the accents and case typed, in title and body", async () => {
      await send("Manutenção às 18h");
      await send("Aviso", "Janela de MANUTENÇÃO programada");
      await send("Manutencao sem acento");
      await send("Promoção de pão");
      for (const query of ["manutencao", "manutenção", "MANUTENÇAO", "Manutençao"]) {
        expect(await titles(query)).toEqual(["Aviso", "Manutencao sem acento", "Manutenção às 18h"]);
      }
      expect(await titles("pao promocao")).toEqual(["Promoção de pão"]);
      expect(await titles("as 18h")).toEqual(["Manutenção às 18h"]);
      expect(await titles("manutencao pao")).toEqual([]);
      expect((await createNotificationHistoryRepository(database).list({ query: "manutencao", ...page })).total).toBe(3);
    });

    it("takes %, _ and \\ literally", async () => {
      await send("50% de desconto");
      await send("500 de desconto");
      await send("a_b c\\d");
      await send("axb");
      expect(await titles("50%")).toEqual(["50% de desconto"]);
      expect(await titles("a_b")).toEqual(["a_b c\\d"]);
      expect(await titles("c\\d")).toEqual(["a_b c\\d"]);
    });

    it("finds people by the start of their id, whatever the case and accents", async () => {
      await insertPlaceholderSubscriptions(database, 3);
      const subscriptions = createSubscriptionsRepository(database);
      await subscriptions.linkPerson("https://push.example.com/0", "João.Silva", 1);
      await subscriptions.linkPerson("https://push.example.com/1", "joana", 1);
      await subscriptions.linkPerson("https://push.example.com/2", "Zé", 1);
      const subscribers = async (prefix: string) =>
        (await createSubscribersRepository(database).list({ personIdPrefix: prefix, ...page })).subscribers.map((s) => s.personId).sort();
      const people = async (prefix: string) => (await createPeopleRepository(database).list({ query: prefix, ...page })).people.map((p) => p.personId).sort();
      expect(await subscribers("joao")).toEqual(["João.Silva"]);
      expect(await subscribers("JOÃO.s")).toEqual(["João.Silva"]);
      expect(await subscribers("jo")).toEqual(["João.Silva", "joana"]);
      expect(await subscribers("ze")).toEqual(["Zé"]);
      expect(await subscribers("silva")).toEqual([]);
      expect(await people("joao")).toEqual(["João.Silva"]);
      expect(await people("Zé")).toEqual(["Zé"]);
      // Forgetting a person clears the folded id too.
      await subscriptions.unlinkPerson("https://push.example.com/2", "Zé", 2);
      expect(await subscribers("ze")).toEqual([]);
    });
  });

  describe(`0009-accounts on ${dialect}`, () => {
    let database: Database;
    let drop: () => Promise<void>;

    beforeEach(async () => {
      const made = await createTestDatabaseLocation(dialect);
      drop = made.drop;
      database = openTestDatabase(made.location);
    });
    afterEach(async () => {
      await database.destroy();
      await drop();
    });

    it("folds the sends and person ids that existed before it", async () => {
      // The database as 0008 left it, with rows written by the code of then.
      const before = MIGRATIONS.slice(0, MIGRATIONS.findIndex(([name]) => name === "0009-accounts"));
      const migrator = new Migrator({
        db: database.db as unknown as Kysely<unknown>,
        provider: { getMigrations: async () => Object.fromEntries(before.map(([name, m]): [string, Migration] => [name, { up: (db) => m.up(db, dialect) }])) },
        ...(database.schema === undefined ? {} : { migrationTableSchema: database.schema }),
      });
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      // More rows than one backfill batch (500), so the batches' hand-over is exercised.
      const rows = Array.from({ length: 1201 }, (_, i) => i);
      for (let from = 0; from < rows.length; from += 400) {
        const chunk = rows.slice(from, from + 400);
        await sql`insert into notifications (title, body, tag, ttl_seconds, audience, payload, status, created_at, expires_at, queued)
          values ${sql.join(chunk.map((i) => sql`(${i === 1200 ? "Manutenção" : `Envio ${i}`}, ${i % 2 === 0 ? "Às 18h" : null}, ${"t"}, ${60}, ${'{"kind":"everyone"}'}, ${"{}"}, ${"completed"}, ${i}, ${i}, ${0})`))}`.execute(database.db);
      }
      await insertPlaceholderSubscriptions(database, 2);
      await sql`update subscriptions set person_id = ${"Conceição"} where endpoint = ${"https://push.example.com/1"}`.execute(database.db);

      expect(await migrateToLatest(database)).toEqual(["0009-accounts", ...MIGRATIONS.slice(before.length + 1).map(([name]) => name)]);

      const found = await createNotificationHistoryRepository(database).list({ query: "manutencao", ...page });
      expect(found.sends.map((s) => s.title)).toEqual(["Manutenção"]);
      const unfolded = await database.db.selectFrom("notifications").select("id").where("search_text", "is", null).execute();
      expect(unfolded).toEqual([]);
      expect((await createNotificationHistoryRepository(database).list({ query: "as 18h", ...page })).total).toBe(601);
      const people = await createSubscribersRepository(database).list({ personIdPrefix: "conceicao", ...page });
      expect(people.subscribers.map((s) => s.personId)).toEqual(["Conceição"]);
      const users = await database.db.selectFrom("subscriptions").select(["person_key"]).orderBy("id").execute();
      expect(users.map((u) => u.person_key)).toEqual([null, "conceicao"]);
    });
  });
}
