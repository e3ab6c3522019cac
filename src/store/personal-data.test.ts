import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DIALECTS, type TestDatabase } from "../../test/support/db.js";
import { aSubscriptionInput as aSubscription } from "../../test/support/subscriptions.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { purgeEndedConsents } from "./consent-records.js";
import { createPersonalDataStore, erasureCountsOf, type PersonalDataStore } from "./personal-data.js";
import { createSubscriptionChannelsRepository } from "./subscription-channels-repository.js";
import { createSubscriptionsRepository, type SubscriptionsRepository } from "./subscriptions-repository.js";

const T0 = 1_780_000_000_000;
const DAY = 86_400_000;
const CONSENT = { source: "soft_prompt" as const, text: "Receber notificações?\nAvisamos só o que importa.\nAtivar notificações", catalogueVersion: "pt-BR-1a2b3c4d", pageOrigin: "https://loja.exemplo" };

/**
 * Every table with a column naming a subscription or a person, and the column. The erase test
 * reads the live schema and fails if a table appears that this list (and personal-data.ts) does
 * not know: a new table of personal data must be erased too.
 */
const PERSONAL_COLUMNS: Record<string, readonly string[]> = {
  subscriptions: ["id", "person_id"],
  subscription_channels: ["subscription_id"],
  subscription_tags: ["subscription_id"],
  notification_events: ["subscription_id"],
  notification_recipients: ["subscription_id", "person_id"],
  delivery_retries: ["subscription_id"],
  notification_targets: ["subscription_id"],
  notification_people: ["person_id"],
  person_tags: ["person_id"],
  consent_records: ["subscription_id"],
  consent_changes: ["subscription_id"],
};

for (const dialect of DIALECTS) {
  describe(`personal data on ${dialect}`, () => {
    let database: TestDatabase;
    let subscriptions: SubscriptionsRepository;
    let store: PersonalDataStore;

    useTestDatabase(dialect, async (created) => {
      database = created;
      subscriptions = createSubscriptionsRepository(database);
      store = createPersonalDataStore(database);
      await database.db.insertInto("channels").values([
        { slug: "ofertas", name: "Ofertas", description: null, is_default: 1, created_at: T0 },
        { slug: "noticias", name: "Notícias", description: null, is_default: 0, created_at: T0 },
      ]).execute();
    });

    async function aNotification(title: string): Promise<number> {
      const row = await database.db
        .insertInto("notifications")
        .values({ title, body: null, icon: null, image: null, badge: null, tag: "t", url: null, urgency: null, ttl_seconds: 60, topic: null, audience: '{"kind":"everyone"}', payload: "{}", status: "completed", created_at: T0, expires_at: T0 + DAY, finished_at: T0, queued: 1 })
        .returning("id")
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }

    /** A browser with a row in every table that can name it, identified as `personId`. */
    async function seed(personId: string, at: number) {
      const input = aSubscription({ consent: CONSENT, timeZone: "America/Sao_Paulo", person: { personId } });
      const registered = await subscriptions.register(input, at);
      if (registered.outcome !== "created") throw new Error(registered.outcome);
      const id = registered.subscription.id;
      const db = database.db;
      await db.updateTable("subscriptions").set({ quiet_hours: "22:00-07:00", last_clicked_at: at + 5, last_shown_at: at + 4, last_visit_at: at + 3 }).where("id", "=", id).execute();
      await createSubscriptionChannelsRepository(database).replaceWithProof({ endpoint: input.endpoint, auth: input.auth }, ["noticias", "ofertas"], 5);
      await db.insertInto("subscription_tags").values({ subscription_id: id, key: "bairro", value: "Centro", num_value: null, time_value: null, updated_at: at }).execute();
      await db.insertInto("person_tags").values({ person_id: personId, key: "plano", value: "ouro", num_value: null, time_value: null, updated_at: at }).execute();
      const sent = await aNotification(`para ${personId}`);
      const waiting = await aNotification("em andamento");
      await db.insertInto("notification_events").values({ notification_id: sent, subscription_id: id, type: "clicked", created_at: at + 5, action: "1" }).execute();
      await db.insertInto("notification_recipients").values({ notification_id: sent, subscription_id: id, person_id: personId, site_id: 1, outcome: "accepted", reason: null, updated_at: at + 1 }).execute();
      await db.insertInto("delivery_retries").values({ notification_id: waiting, subscription_id: id, attempt: 1, not_before: at + 60_000, last_reason: "retry", lease_owner: null }).execute();
      await db.insertInto("notification_targets").values({ notification_id: waiting, subscription_id: id }).execute();
      await db.insertInto("notification_people").values({ notification_id: sent, person_id: personId, data: JSON.stringify({ nome: personId }) }).execute();
      const hook = await db.insertInto("webhooks").values({ url: "https://hooks.exemplo/x", description: null, events: "[]", secret: "whsec_x", created_at: at, updated_at: at }).returning("id").executeTakeFirstOrThrow();
      await db
        .insertInto("webhook_messages")
        .values({ webhook_id: Number(hook.id), message_id: `msg_${id}`, event_type: "subscription.created", payload: JSON.stringify({ type: "subscription.created", data: { subscriptionId: String(id), userId: personId, siteId: "1" } }), not_before: at, created_at: at })
        .execute();
      return { id, input, sent, waiting };
    }

    it("records the consent with a new registration, each later choice, and the end", async () => {
      const input = aSubscription({ consent: CONSENT });
      const first = await subscriptions.register(input, T0);
      if (first.outcome !== "created") throw new Error(first.outcome);
      // Registering again on the next visit does not move the moment consent was given.
      await subscriptions.register({ ...input, consent: { ...CONSENT, text: "outro" } }, T0 + DAY);
      await createSubscriptionChannelsRepository(database).replaceBatch([{ proof: { endpoint: input.endpoint, auth: input.auth }, slugs: ["noticias"], max: 5, now: T0 + 2 * DAY }]);
      const data = await store.exportSubscription(first.subscription.id);
      expect(data?.consent).toEqual({ givenAt: T0, siteId: 1, pageOrigin: CONSENT.pageOrigin, source: "soft_prompt", text: CONSENT.text, catalogueVersion: CONSENT.catalogueVersion, channels: ["ofertas"], endedAt: null, endReason: null });
      expect(data?.consentChanges).toEqual([{ kind: "channels", value: ["noticias"], at: T0 + 2 * DAY }]);

      expect(await subscriptions.removeWithProof(input.endpoint, input.auth, T0 + 3 * DAY)).toBe("removed");
      const record = await database.db.selectFrom("consent_records").selectAll().executeTakeFirstOrThrow();
      expect([Number(record.ended_at), record.end_reason]).toEqual([T0 + 3 * DAY, "unsubscribed"]);
      const kinds = await database.db.selectFrom("consent_changes").select("kind").orderBy("id").execute();
      expect(kinds.map((k) => k.kind)).toEqual(["channels", "unsubscribed"]);
    });

    it("records nothing for a registration without consent, and carries consent over a key rotation", async () => {
      const plain = await subscriptions.register(aSubscription(), T0);
      if (plain.outcome !== "created") throw new Error(plain.outcome);
      expect((await store.exportSubscription(plain.subscription.id))?.consent).toBeNull();

      const old = aSubscription({ consent: CONSENT });
      const before = await subscriptions.register(old, T0);
      if (before.outcome !== "created") throw new Error(before.outcome);
      const rotated = await subscriptions.register(aSubscription({ previous: { endpoint: old.endpoint, auth: old.auth } }), T0 + DAY);
      if (rotated.outcome !== "created") throw new Error(rotated.outcome);
      expect((await store.exportSubscription(rotated.subscription.id))?.consent?.givenAt).toBe(T0);
    });

    it("exports exactly what is stored about a browser and a person", async () => {
      const { id, input, sent, waiting } = await seed("ana@exemplo", T0);
      const data = await store.exportSubscription(id);
      expect(data).toEqual({
        subscription: {
          id,
          endpoint: input.endpoint,
          userAgent: input.userAgent,
          browser: null,
          platform: null,
          siteId: 1,
          siteOrigin: null,
          createdAt: T0,
          updatedAt: T0,
          lastSeenAt: T0,
          identifiedAt: T0,
          timeZone: "America/Sao_Paulo",
          quietHours: "22:00-07:00",
          declarative: false,
          lastShownAt: T0 + 4,
          lastVisitAt: T0 + 3,
          lastClickedAt: T0 + 5,
          reengagedAt: null,
          warnedAt: null,
          vapidMismatchAt: null,
          vapidKeyId: null,
        },
        userId: "ana@exemplo",
        channels: ["noticias", "ofertas"],
        tags: [{ key: "bairro", value: "Centro", updatedAt: T0 }],
        consent: { givenAt: T0, siteId: 1, pageOrigin: CONSENT.pageOrigin, source: "soft_prompt", text: CONSENT.text, catalogueVersion: CONSENT.catalogueVersion, channels: ["ofertas"], endedAt: null, endReason: null },
        consentChanges: [{ kind: "channels", value: ["noticias", "ofertas"], at: expect.any(Number) }],
        events: [{ notificationId: sent, type: "clicked", action: "1", at: T0 + 5 }],
        deliveries: [{ notificationId: sent, outcome: "accepted", reason: null, attempts: 1, at: T0 + 1 }],
        pending: [
          { notificationId: waiting, kind: "retry" },
          { notificationId: waiting, kind: "target" },
        ],
      });
      // The keys are the browser's secret: never in an export.
      expect(JSON.stringify(data)).not.toContain(input.auth);
      expect(JSON.stringify(data)).not.toContain(input.p256dh);

      const person = await store.exportPerson("ana@exemplo");
      expect(person).toEqual({ userId: "ana@exemplo", tags: [{ key: "plano", value: "ouro", updatedAt: T0 }], sends: [{ notificationId: sent, data: { nome: "ana@exemplo" } }], otherDeliveries: [], subscriptions: [data] });
      expect(erasureCountsOf(person!)).toEqual({ subscriptions: 1, channels: 2, tags: 1, events: 1, deliveries: 1, pending: 2, consentRecords: 1, consentChanges: 1, personTags: 1, sends: 1, webhookMessages: 0 });
      expect(await store.exportPerson("ninguem")).toBeUndefined();
    });

    it("erases a person and leaves nothing personal, table by table, and someone else's rows untouched", async () => {
      const ana = await seed("Ana", T0);
      const other = await seed("ana", T0); // differs only in case: must survive (LIKE would not tell them apart on SQLite)
      const erased = await store.erasePerson("Ana", "operator", T0 + DAY);
      expect(erased).toEqual({ subscriptions: 1, channels: 2, tags: 1, events: 1, deliveries: 1, pending: 2, consentRecords: 1, consentChanges: 1, personTags: 1, sends: 1, webhookMessages: 1 });

      // Every table of the live schema with a subscription or person column is known here.
      const tables = (await database.db.introspection.getTables()).filter((t) => t.schema === database.schema);
      const personal = tables.filter((t) => t.columns.some((c) => c.name === "subscription_id" || c.name === "person_id")).map((t) => t.name);
      expect(personal.sort()).toEqual(Object.keys(PERSONAL_COLUMNS).sort());

      for (const [table, columns] of Object.entries(PERSONAL_COLUMNS)) {
        for (const column of columns) {
          const value = column === "person_id" ? "Ana" : ana.id;
          const gone = await database.db.selectFrom(table as "subscriptions").select((eb) => eb.fn.countAll<string | number>().as("n")).where(column as "id", "=", value as number).executeTakeFirstOrThrow();
          expect([table, column, Number(gone.n)]).toEqual([table, column, 0]);
          const kept = column === "person_id" ? "ana" : other.id;
          const still = await database.db.selectFrom(table as "subscriptions").select((eb) => eb.fn.countAll<string | number>().as("n")).where(column as "id", "=", kept as number).executeTakeFirstOrThrow();
          expect([table, column, Number(still.n) > 0]).toEqual([table, column, true]);
        }
      }
      const messages = await database.db.selectFrom("webhook_messages").select("payload").execute();
      expect(messages.map((m) => m.payload).filter((p) => p.includes('"Ana"') || p.includes(`"subscriptionId":"${ana.id}"`))).toEqual([]);
      expect(messages).toHaveLength(1);

      // The erasure is logged, without whose it was; the removal counts for the charts.
      const log = await database.db.selectFrom("data_erasures").selectAll().execute();
      expect(log.map((l) => [l.requested_by, l.scope, JSON.parse(l.rows)])).toEqual([["operator", "person", erased]]);
      expect(JSON.stringify(log)).not.toContain("Ana");
      const removals = await database.db.selectFrom("subscription_removals").select("reason").execute();
      expect(removals.map((r) => r.reason)).toEqual(["operator"]);
      expect(await store.erasePerson("Ana", "operator", T0 + DAY)).toBeUndefined();
    });

    it("erases one browser with proof of possession, and refuses without it", async () => {
      const { id, input } = await seed("bia", T0);
      expect(await store.eraseWithProof({ endpoint: input.endpoint, auth: randomBytes(16).toString("base64url") }, T0)).toEqual({ outcome: "auth_mismatch" });
      expect(await store.exportSubscription(id)).toBeDefined();
      const result = await store.eraseWithProof({ endpoint: input.endpoint, auth: input.auth }, T0 + 1);
      expect(result.outcome).toBe("ok");
      expect(await store.exportSubscription(id)).toBeUndefined();
      expect(await store.exportWithProof({ endpoint: input.endpoint, auth: input.auth })).toEqual({ outcome: "not_found" });
      // A subscriber's erasure is their unsubscribe; the person's trusted tags are the host's, kept.
      expect((await database.db.selectFrom("subscription_removals").select("reason").execute()).map((r) => r.reason)).toEqual(["unsubscribed"]);
      const log = await database.db.selectFrom("data_erasures").select(["requested_by", "scope"]).execute();
      expect(log).toEqual([{ requested_by: "subscriber", scope: "subscription" }]);
    });

    it("keeps an ended subscription's consent for the retention period, then purges it", async () => {
      const unsubscribed = aSubscription({ consent: CONSENT });
      await subscriptions.register(unsubscribed, T0);
      const gone = aSubscription({ consent: CONSENT });
      const goneId = (await subscriptions.register(gone, T0)) as { subscription: { id: number } };
      const living = aSubscription({ consent: CONSENT });
      await subscriptions.register(living, T0);
      await subscriptions.removeWithProof(unsubscribed.endpoint, unsubscribed.auth, T0 + DAY);
      // A push service's 410 removes the row without touching the record: the purge stamps it.
      await database.db.deleteFrom("subscriptions").where("id", "=", goneId.subscription.id).execute();

      expect(await purgeEndedConsents(database.db, T0 + 2 * DAY, 30)).toEqual({ ended: 1, records: 0, changes: 0 });
      expect(await purgeEndedConsents(database.db, T0 + 31 * DAY + 1, 30)).toEqual({ ended: 0, records: 1, changes: 1 });
      expect(await purgeEndedConsents(database.db, T0 + 33 * DAY, 30)).toEqual({ ended: 0, records: 1, changes: 0 });
      const left = await database.db.selectFrom("consent_records").select("ended_at").execute();
      expect(left).toEqual([{ ended_at: null }]);
    });
  });
}
