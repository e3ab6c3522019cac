import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../../test/support/db.js";
import { evaluateSegment } from "./evaluate.js";
import { formatSegment } from "../../shared/segments/format.js";
import { parseSegment } from "../../shared/segments/parse.js";
import type { SegmentNode, SegmentTagKinds } from "../../shared/segments/tree.js";
import { decimalNumber, isoDateMs } from "../../shared/segments/values.js";
import { createSegmentsRepository, type SegmentsRepository } from "../../store/segments-repository.js";
import { segmentFilter } from "../../store/segment-sql.js";

/** A small deterministic PRNG (mulberry32): the same data and expressions on both databases. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick, chance: (p: number) => next() < p };
}

/** How the tag store keeps a value (shared/api/tags.ts typedTagValue, with the same rules of values.ts). */
function stored(value: string | number | true) {
  if (value === true) return { value: null, num_value: null, time_value: null };
  if (typeof value === "number") return { value: String(value), num_value: value, time_value: null };
  return { value, num_value: decimalNumber(value), time_value: isoDateMs(value) };
}

const NOW = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;

/** A bare subscription row seen at NOW, its endpoint named by `name`, belonging to `personId`. */
function subscriptionRow(id: number, name: string, personId: string | null) {
  return { id, endpoint: `https://push.example/${name}`, p256dh: "k", auth: "a", created_at: NOW, updated_at: NOW, last_seen_at: NOW, person_id: personId };
}
const TAG_VALUES: Record<string, readonly (string | number | true)[]> = {
  plano: ["premium", "basico", "São Paulo", "x'; drop table subscriptions; --", true],
  idade: [17, 18, 30, 45.5, "18.0", "abc", true],
  nascimento: ["2010-05-01", "1990-01-01", "2010-05-01T00:00:00Z", "2026-05-20T10:00:00-03:00", "ontem"],
  vip: [true, "sim"],
  e: ["1", "x"],
  cidade: ["Campinas", "campinas", "Cambuí", "01310"],
};

async function seed(database: TestDatabase) {
  const { db } = database;
  const rnd = random(24);
  await db.insertInto("sites").values({ id: 2, origin: "https://loja.exemplo.com.br", key: "site2key", created_at: NOW }).execute();
  await db
    .insertInto("channels")
    .values(["obras", "saude", "eventos"].map((slug, i) => ({ id: 10 + i, slug, name: slug, created_at: NOW })))
    .execute();
  const people = Array.from({ length: 120 }, (_, i) => `pessoa-${i}`);
  const personTags = people.flatMap((person) =>
    Object.entries(TAG_VALUES)
      .filter(() => rnd.chance(0.55))
      .map(([key, values]) => ({ person_id: person, key, ...stored(rnd.pick(values)), updated_at: NOW })),
  );
  const subscriptions = Array.from({ length: 300 }, (_, i) => {
    const created = NOW - Math.floor(rnd.next() * 400) * DAY;
    return {
      id: i + 1,
      endpoint: `https://push.example/${i}`,
      p256dh: "k",
      auth: "a",
      user_agent: null,
      created_at: created,
      updated_at: created,
      last_seen_at: NOW - Math.floor(rnd.next() * 60) * DAY - Math.floor(rnd.next() * 24) * 3_600_000,
      site_id: rnd.chance(0.7) ? 1 : 2,
      person_id: rnd.chance(0.7) ? rnd.pick(people) : null,
      time_zone: rnd.pick([null, "America/Sao_Paulo", "Europe/Lisbon"]),
      browser: rnd.pick([null, "firefox", "chrome"]),
      platform: rnd.pick([null, "android", "windows"]),
      last_clicked_at: rnd.chance(0.4) ? null : NOW - Math.floor(rnd.next() * 30 * 24) * 3_600_000,
      vapid_mismatch_at: rnd.chance(0.05) ? NOW : null,
    };
  });
  const visitorTags = subscriptions.flatMap((s) =>
    Object.entries(TAG_VALUES)
      .filter(() => rnd.chance(0.3))
      .map(([key, values]) => ({ subscription_id: s.id, key, ...stored(rnd.pick(values)), updated_at: NOW })),
  );
  const channels = subscriptions.flatMap((s) => [10, 11, 12].filter(() => rnd.chance(0.4)).map((channel_id) => ({ subscription_id: s.id, channel_id })));
  for (let i = 0; i < subscriptions.length; i += 100) await db.insertInto("subscriptions").values(subscriptions.slice(i, i + 100)).execute();
  for (let i = 0; i < personTags.length; i += 100) await db.insertInto("person_tags").values(personTags.slice(i, i + 100)).execute();
  for (let i = 0; i < visitorTags.length; i += 100) await db.insertInto("subscription_tags").values(visitorTags.slice(i, i + 100)).execute();
  await db.insertInto("subscription_channels").values(channels).execute();
  return { flagged: new Set(subscriptions.filter((s) => s.vapid_mismatch_at !== null).map((s) => s.id)) };
}

/** A random condition from the pools above (values that exist and some that do not). */
function randomCondition(rnd: ReturnType<typeof random>): SegmentNode {
  const key = rnd.pick(Object.keys(TAG_VALUES));
  const someValue = () => {
    const v = rnd.pick([...(TAG_VALUES[key] ?? []), "nada", 99]);
    return v === true ? "sim" : v;
  };
  const orderValue = () => rnd.pick([18, 30, 0, 45.5, "2010-05-01", "2000-01-01", "2026-05-20T13:00:00Z"]);
  switch (Math.floor(rnd.next() * 12)) {
    case 0:
      return { tag: key, op: "exists" };
    case 1:
    case 2:
      return { tag: key, op: "eq", value: someValue() };
    case 3:
      return { tag: key, op: "ne", value: someValue() };
    case 4:
      return { tag: key, op: rnd.pick(["gt", "gte", "lt", "lte"] as const), value: orderValue() };
    case 5:
      return { tag: key, op: "in", values: [someValue(), someValue(), orderValue()] };
    case 6:
      return rnd.chance(0.5) ? { field: "channel", op: "eq", value: rnd.pick(["obras", "saude", "nenhum"]) } : { field: "channel", op: "in", values: ["eventos", rnd.pick(["obras", "nenhum"])] };
    case 7:
      return rnd.chance(0.5) ? { field: "site", op: "eq", value: rnd.pick([1, 2, 3]) } : { field: "timeZone", op: "in", values: ["America/Sao_Paulo", "Asia/Tokyo"] };
    case 8:
      return { field: rnd.pick(["browser", "platform"] as const), op: "eq", value: rnd.pick(["firefox", "android", "chrome"]) };
    case 9:
      return { field: rnd.pick(["subscribedAt", "lastSeenAt", "lastClickedAt"] as const), op: rnd.pick(["before", "after"] as const), value: rnd.pick(["2026-01-01", "2026-05-25T12:00:00Z", "2025-06-01"]) };
    case 10:
      return { field: rnd.pick(["subscribedAt", "lastSeenAt", "lastClickedAt"] as const), op: rnd.pick(["olderThan", "within"] as const), amount: rnd.pick([1, 3, 10, 100]), unit: rnd.pick(["hours", "days", "weeks"] as const) };
    default:
      return { field: "identified" };
  }
}

function randomTree(rnd: ReturnType<typeof random>, depth: number): SegmentNode {
  if (depth === 0 || rnd.chance(0.3)) return randomCondition(rnd);
  const r = rnd.next();
  if (r < 0.2) return { not: randomTree(rnd, depth - 1) };
  const children = Array.from({ length: 2 + Math.floor(rnd.next() * 2) }, () => randomTree(rnd, depth - 1));
  return r < 0.6 ? { and: children } : { or: children };
}

/** Counts per expression and tag kinds from the first database, for the second to agree with. */
const firstCounts = new Map<string, { subscriptions: number; people: number }>();

for (const dialect of DIALECTS) {
  describe(`segments on ${dialect}`, () => {
    let database: TestDatabase;
    let repo: SegmentsRepository;
    let flagged: Set<number>;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      repo = createSegmentsRepository(database);
      ({ flagged } = await seed(database));
    });
    afterAll(async () => {
      await database.cleanup();
    });

    async function jsCount(tree: SegmentNode, tagKinds: SegmentTagKinds) {
      const channelIds = await repo.channelIds(tree);
      const facts = await repo.facts(Array.from({ length: 300 }, (_, i) => i + 1));
      const matching = facts.filter((f) => !f.flagged && evaluateSegment(tree, f, { tagKinds, now: NOW, channelIds }));
      return { subscriptions: matching.length, people: new Set(matching.flatMap((f) => (f.personId === null ? [] : [f.personId]))).size };
    }

    async function sqlIds(tree: SegmentNode, tagKinds: SegmentTagKinds) {
      const channelIds = await repo.channelIds(tree);
      const rows = await database.db.selectFrom("subscriptions").select("id").where(segmentFilter(tree, { tagKinds, now: NOW, channelIds })).orderBy("id").execute();
      return rows.map((row) => Number(row.id));
    }

    function text(expression: string): SegmentNode {
      const parsed = parseSegment(expression);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
      return parsed.tree;
    }

    it("counts the same as the JS evaluator on random expressions, for every tag kind, and both databases agree", async () => {
      const rnd = random(2026);
      for (let i = 0; i < 60; i++) {
        const tree = randomTree(rnd, 3);
        // The text form gives the same tree, so the text and the JSON reach the same audience.
        expect(text(formatSegment(tree)), formatSegment(tree)).toEqual(tree);
        for (const tagKinds of ["trusted", "visitor", "all"] as const) {
          const label = `${tagKinds}: ${formatSegment(tree)}`;
          // The count writes conditions as sets; the workers' range query as probes: same rows.
          const count = await repo.countSegment(tree, tagKinds, NOW);
          expect(count, label).toEqual(await jsCount(tree, tagKinds));
          expect((await sqlIds(tree, tagKinds)).filter((id) => !flagged.has(id)).length, label).toBe(count.subscriptions);
          const first = firstCounts.get(label);
          if (first === undefined) firstCounts.set(label, count);
          else expect(count, label).toEqual(first);
        }
      }
      expect(firstCounts.size).toBeGreaterThanOrEqual(100);
    });

    it("agrees with the JS evaluator on every single tag condition over the pools, trusted and visitor", async () => {
      const values = [18, 30, 45.5, 0, "18.0", "abc", "premium", "sim", "2010-05-01", "2026-05-20T13:00:00Z", "Campinas", "01310", "x"];
      const facts = await repo.facts(Array.from({ length: 300 }, (_, i) => i + 1));
      for (const tag of Object.keys(TAG_VALUES)) {
        const conditions: SegmentNode[] = [{ tag, op: "exists" }, { tag, op: "in", values: values.slice(0, 7) }, { tag, op: "in", values: values.slice(6) }];
        for (const value of values) {
          for (const op of ["eq", "ne"] as const) conditions.push({ tag, op, value });
          if (typeof value === "number" || isoDateMs(value) !== null) for (const op of ["gt", "gte", "lt", "lte"] as const) conditions.push({ tag, op, value });
        }
        for (const condition of conditions) {
          for (const tagKinds of ["trusted", "visitor"] as const) {
            const ctx = { tagKinds, now: NOW, channelIds: new Map<string, number>() };
            const expected = facts.filter((f) => evaluateSegment(condition, f, ctx)).map((f) => f.id);
            expect(await sqlIds(condition, tagKinds), `${tagKinds}: ${formatSegment(condition)}`).toEqual(expected);
            expect(await sqlIds({ not: condition }, tagKinds), `${tagKinds}: não ${formatSegment(condition)}`).toEqual(facts.filter((f) => !expected.includes(f.id)).map((f) => f.id));
          }
        }
      }
    });

    it("finds at least something and not everything with the random data (the agreement test is not vacuous)", async () => {
      const all = await repo.countSegment({ not: { field: "identified" } }, "trusted", NOW);
      const some = await repo.countSegment(text("plano = premium"), "all", NOW);
      expect(all.subscriptions).toBeGreaterThan(30);
      expect(all.people).toBe(0);
      expect(some.subscriptions).toBeGreaterThan(5);
      expect(some.subscriptions).toBeLessThan(200);
    });

    it("compares numbers with numbers, dates with dates and other text as exact text", async () => {
      for (const expression of ["idade = 18", "idade >= 18", 'idade = "18.0"', "nascimento < 2011-01-01", "nascimento = 2010-05-01", "cidade = campinas", "cidade = 01310", `plano = "x'; drop table subscriptions; --"`, 'plano = "São Paulo"']) {
        const tree = text(expression);
        for (const tagKinds of ["trusted", "visitor", "all"] as const) expect(await repo.countSegment(tree, tagKinds, NOW), expression).toEqual(await jsCount(tree, tagKinds));
      }
      // The hostile value is just a value: the tables are still there.
      expect(await database.db.selectFrom("subscriptions").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).toEqual({ n: expect.anything() });
    });

    it("reads != as 'present with another value': a missing tag never matches, não = does", async () => {
      await database.db.insertInto("subscriptions").values([subscriptionRow(1001, "ne-1", "ne-a"), subscriptionRow(1002, "ne-2", "ne-b"), subscriptionRow(1003, "ne-3", "ne-c")]).execute();
      await database.db
        .insertInto("person_tags")
        .values([
          { person_id: "ne-a", key: "nivel", ...stored("ouro"), updated_at: NOW },
          { person_id: "ne-b", key: "nivel", ...stored(true), updated_at: NOW },
        ])
        .execute();
      const ids = async (expression: string) => (await sqlIds(text(expression), "trusted")).filter((id) => id > 1000);
      expect(await ids("nivel != prata")).toEqual([1001, 1002]);
      expect(await ids("nivel != ouro")).toEqual([1002]);
      expect(await ids("não nivel = ouro")).toEqual([1002, 1003]);
      expect(await ids("tem nivel")).toEqual([1001, 1002]);
      expect(await ids("não tem nivel")).toEqual([1003]);
    });

    it("keeps não two-valued on empty fields: a subscription with no time zone is not in fuso = X, so it is in não fuso = X", async () => {
      const tagged = await sqlIds(text("tem plano"), "trusted");
      const untagged = await sqlIds(text("não tem plano"), "trusted");
      expect(tagged.length + untagged.length).toBe(await sqlIds(text("não (tem plano e não tem plano)"), "trusted").then((ids) => ids.length));
      const none = await sqlIds(text("fuso = Asia/Tokyo"), "trusted");
      const notNone = await sqlIds(text("não fuso = Asia/Tokyo"), "trusted");
      const all = await sqlIds(text("não (fuso = Asia/Tokyo e navegador = netscape)"), "trusted");
      expect(none).toEqual([]);
      expect(notNone).toEqual(all);
      const neverClicked = await sqlIds(text("clique há mais de 1000 semanas"), "trusted");
      const clicked = await sqlIds(text("clique há menos de 1000 semanas"), "trusted");
      expect(neverClicked.length + clicked.length).toBe(all.length);
    });

    it("reads trusted tags from the person, visitor tags from the subscription, and either with all", async () => {
      await database.db.insertInto("subscriptions").values([subscriptionRow(2001, "k-1", "kinds-a"), subscriptionRow(2002, "k-2", "kinds-a"), subscriptionRow(2003, "k-3", null)]).execute();
      await database.db.insertInto("person_tags").values({ person_id: "kinds-a", key: "turma", ...stored("5a"), updated_at: NOW }).execute();
      await database.db.insertInto("subscription_tags").values({ subscription_id: 2003, key: "turma", ...stored("5a"), updated_at: NOW }).execute();
      const tree = text("turma = 5a");
      const only = async (kinds: SegmentTagKinds) => (await sqlIds(tree, kinds)).filter((id) => id > 2000);
      expect(await only("trusted")).toEqual([2001, 2002]);
      expect(await only("visitor")).toEqual([2003]);
      expect(await only("all")).toEqual([2001, 2002, 2003]);
      // Two devices, one person.
      const count = await repo.countSegment(tree, "trusted", NOW);
      expect(count.subscriptions - count.people).toBeGreaterThanOrEqual(1);
    });

    it("finds no one in an unknown channel, and reports which slugs name a channel", async () => {
      expect(await repo.channelIds(text("canal in (obras, nenhum) ou canal = eventos"))).toEqual(new Map([["obras", 10], ["eventos", 12]]));
      expect(await repo.countSegment(text("canal = nenhum"), "trusted", NOW)).toEqual({ subscriptions: 0, people: 0 });
    });

    it("leaves out subscriptions flagged for a VAPID key mismatch", async () => {
      const everyone = await repo.countSegment(text("inscrito depois de 1970-01-01"), "trusted", NOW);
      const rows = await database.db.selectFrom("subscriptions").select((eb) => eb.fn.countAll().as("n")).where("vapid_mismatch_at", "is", null).executeTakeFirstOrThrow();
      expect(everyone.subscriptions).toBe(Number(rows.n));
      expect(flagged.size).toBeGreaterThan(0);
    });
  });
}
