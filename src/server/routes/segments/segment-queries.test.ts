/**
 * POST /segments/count and /segments/explain over HTTP, on SQLite and PostgreSQL: text and JSON
 * give the same answer, parse errors name the position in pt-BR, every limit is a 400 naming it,
 * unknown channels are reported, explain says which conditions held, and who may call which.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ApiClient, addToken, addUser, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { SEGMENT_LIMITS } from "../../../shared/segments/tree.js";

const NOW = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;

for (const dialect of DIALECTS) {
  describe(`segment count and explain on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let publisher: ApiClient;
    let publishToken: ApiClient;
    let adminToken: ApiClient;

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, now: () => NOW });
      admin = await setUpAdmin(server);
      publisher = (await addUser(admin, "publisher")).client;
      publishToken = new ApiClient(server, { bearer: (await addToken(admin, "publish")).secret });
      adminToken = new ApiClient(server, { bearer: (await addToken(admin, "admin")).secret });
      expect((await admin.post(API_ROUTES.channels, { slug: "obras", name: "Obras" })).status).toBe(201);
      const { db } = server.database;
      const channel = await db.selectFrom("channels").select("id").where("slug", "=", "obras").executeTakeFirstOrThrow();
      const sub = (id: number, person: string | null, extra: Record<string, unknown> = {}) => ({
        id,
        endpoint: `https://push.example/${id}`,
        p256dh: "k",
        auth: "a",
        created_at: NOW - 10 * DAY,
        updated_at: NOW,
        last_seen_at: NOW - id * DAY,
        person_id: person,
        ...extra,
      });
      await db
        .insertInto("subscriptions")
        .values([sub(1, "ana", { browser: "firefox" }), sub(2, "ana", { browser: "chrome" }), sub(3, "bia"), sub(4, null), sub(5, "caio", { vapid_mismatch_at: NOW })])
        .execute();
      const tag = (key: string, value: string | null, num: number | null = null) => ({ key, value, num_value: num, time_value: null, updated_at: NOW });
      await db
        .insertInto("person_tags")
        .values([
          { person_id: "ana", ...tag("plano", "premium") },
          { person_id: "ana", ...tag("idade", "30", 30) },
          { person_id: "bia", ...tag("plano", "basico") },
          { person_id: "bia", ...tag("optout", null) },
          { person_id: "caio", ...tag("plano", "premium") },
        ])
        .execute();
      await db.insertInto("subscription_tags").values({ subscription_id: 4, ...tag("plano", "premium") }).execute();
      await db.insertInto("subscription_channels").values({ subscription_id: 2, channel_id: Number(channel.id) }).execute();
    });
    afterAll(async () => {
      await server.close();
    });

    it("counts subscriptions and people, and answers the canonical text and the tree", async () => {
      const res = await publisher.post(API_ROUTES.segmentsCount, { expression: "plano = premium E idade>=18 ou NAO tem optout" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        // ana's two devices (caio's only one is flagged, so it never counts), and the anonymous 4 (no optout).
        subscriptions: 3,
        people: 1,
        expression: "(plano = premium e idade >= 18) ou não tem optout",
        tree: { or: [{ and: [{ tag: "plano", op: "eq", value: "premium" }, { tag: "idade", op: "gte", value: 18 }] }, { not: { tag: "optout", op: "exists" } }] },
        tagKinds: "trusted",
        unknownChannels: [],
      });
    });

    it("gives the same answer for the JSON tree as for the text", async () => {
      const text = await publishToken.post(API_ROUTES.segmentsCount, { expression: "plano = premium e não canal = obras", tagKinds: "all" });
      const json = await publishToken.post(API_ROUTES.segmentsCount, { expression: text.body.tree, tagKinds: "all" });
      expect(text.status).toBe(200);
      expect(json.body).toEqual(text.body);
      // ana's device 1 (trusted) and the anonymous 4 (visitor tag); device 2 is in obras.
      expect(text.body).toMatchObject({ subscriptions: 2, people: 1 });
    });

    it("reads the tags the tag kinds say", async () => {
      const count = async (tagKinds: string) => (await admin.post(API_ROUTES.segmentsCount, { expression: "plano = premium", tagKinds })).body;
      expect(await count("trusted")).toMatchObject({ subscriptions: 2, people: 1 });
      expect(await count("visitor")).toMatchObject({ subscriptions: 1, people: 0 });
      expect(await count("all")).toMatchObject({ subscriptions: 3, people: 1 });
    });

    it("reports channels that do not exist, and counts no one for them", async () => {
      const res = await admin.post(API_ROUTES.segmentsCount, { expression: "canal in (obras, festas) ou canal = shows" });
      expect(res.body).toMatchObject({ subscriptions: 1, unknownChannels: ["festas", "shows"] });
    });

    it("answers a parse error with its position and a pt-BR message that names it", async () => {
      const res = await admin.post(API_ROUTES.segmentsCount, { expression: "plano = premium e idade >" });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: {
          code: "segment_syntax",
          field: "expression",
          position: 25,
          message: "A expressão do segmento não pôde ser lida. Na posição 26: a expressão terminou antes da hora; falta uma condição ou um valor.",
        },
      });
      const value = await admin.post(API_ROUTES.segmentsCount, { expression: "idade > muito" });
      expect(value.body.error).toMatchObject({ code: "segment_value_invalid", position: 8 });
      expect(value.body.error.message).toContain("Na posição 9: “muito” não é número nem data");
    });

    it("refuses every limit with a 400 naming it", async () => {
      const conditions = (n: number) => Array.from({ length: n }, (_, i) => `tem k${i}`).join(" e ");
      const cases: Array<[unknown, string]> = [
        [`x = "${"a".repeat(SEGMENT_LIMITS.textLength)}"`, "segment_too_long"],
        [`${"(".repeat(SEGMENT_LIMITS.depth + 1)}tem x${")".repeat(SEGMENT_LIMITS.depth + 1)}`, "segment_too_deep"],
        [conditions(SEGMENT_LIMITS.conditions + 1), "segment_too_many_conditions"],
        [`x in (${Array.from({ length: SEGMENT_LIMITS.listSize + 1 }, (_, i) => i).join(",")})`, "segment_list_too_long"],
        [{ and: Array.from({ length: SEGMENT_LIMITS.conditions + 1 }, () => ({ tag: "x", op: "exists" })) }, "segment_too_many_conditions"],
        [{ tag: "x", op: "in", values: Array.from({ length: SEGMENT_LIMITS.listSize + 1 }, (_, i) => i) }, "segment_list_too_long"],
      ];
      cases.push([{ tag: "idade", op: "gt", value: "muito" }, "segment_value_invalid"], [{ tag: "x", op: "like", value: "a" }, "segment_syntax"]);
      for (const [expression, code] of cases) {
        const res = await admin.post(API_ROUTES.segmentsCount, { expression });
        expect({ status: res.status, code: res.body.error?.code }, JSON.stringify(expression).slice(0, 60)).toEqual({ status: 400, code });
        expect(res.body.error.message.length).toBeGreaterThan(20);
      }
      // A hostile tree 5,000 levels deep (written by hand: JSON.stringify itself would overflow here).
      const deep = `{"expression":${'{"not":'.repeat(5_000)}{"tag":"x","op":"exists"}${"}".repeat(5_000)}}`;
      const res = await admin.request("POST", API_ROUTES.segmentsCount, deep, { "content-type": "application/json" });
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 400, code: "segment_too_deep" });
    });

    it("takes hostile text as a value, and the tables are still there", async () => {
      const res = await admin.post(API_ROUTES.segmentsCount, { expression: `plano = "x'; drop table subscriptions; --" ou plano in ("') or 1=1 --")` });
      expect(res.body).toMatchObject({ subscriptions: 0, people: 0 });
      expect((await admin.post(API_ROUTES.segmentsCount, { expression: "tem plano" })).body.subscriptions).toBe(3);
    });

    it("needs a signed-in operator or a token to count", async () => {
      const anonymous = new ApiClient(server);
      expect((await anonymous.post(API_ROUTES.segmentsCount, { expression: "tem plano" })).status).toBe(401);
    });

    it("explains, for a person, which conditions held on each of their subscriptions", async () => {
      const res = await admin.post(API_ROUTES.segmentsExplain, { expression: "plano = premium e não canal = obras", userId: "ana" });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ matches: true, expression: "plano = premium e não canal = obras", unknownChannels: [] });
      expect(res.body.subscriptions).toEqual([
        {
          id: "1",
          matches: true,
          excluded: false,
          tree: { text: "plano = premium e não canal = obras", held: true, children: [{ text: "plano = premium", held: true }, { text: "não canal = obras", held: true, children: [{ text: "canal = obras", held: false }] }] },
        },
        {
          id: "2",
          matches: false,
          excluded: false,
          tree: { text: "plano = premium e não canal = obras", held: false, children: [{ text: "plano = premium", held: true }, { text: "não canal = obras", held: false, children: [{ text: "canal = obras", held: true }] }] },
        },
      ]);
    });

    it("explains one subscription, and says when a flagged one is out whatever the expression", async () => {
      const visitor = await adminToken.post(API_ROUTES.segmentsExplain, { expression: { tag: "plano", op: "eq", value: "premium" }, tagKinds: "visitor", subscriptionId: "4" });
      expect(visitor.body).toMatchObject({ matches: true, subscriptions: [{ id: "4", matches: true, tree: { text: "plano = premium", held: true } }] });
      const flagged = await admin.post(API_ROUTES.segmentsExplain, { expression: "plano = premium", userId: "caio" });
      expect(flagged.body).toMatchObject({ matches: false, subscriptions: [{ id: "5", matches: false, excluded: true, tree: { held: true } }] });
    });

    it("explains a saved segment with its own tag kinds", async () => {
      const { db } = server.database;
      const saved = await db
        .insertInto("segments")
        .values({ name: "Premium do navegador", expression: JSON.stringify({ tag: "plano", op: "eq", value: "premium" }), tag_kinds: "visitor", created_at: NOW, updated_at: NOW })
        .returning("id")
        .executeTakeFirstOrThrow();
      const res = await admin.post(API_ROUTES.segmentsExplain, { segment: String(saved.id), subscriptionId: "4" });
      expect(res.body).toMatchObject({ matches: true, tagKinds: "visitor" });
      expect((await admin.post(API_ROUTES.segmentsExplain, { segment: "999", subscriptionId: "4" })).body.error.code).toBe("segment_not_found");
    });

    it("answers 404 for an unknown person or subscription, 400 without exactly one of each pair, and 403 to a publisher", async () => {
      expect((await admin.post(API_ROUTES.segmentsExplain, { expression: "tem plano", userId: "ninguem" })).body.error.code).toBe("person_not_found");
      expect((await admin.post(API_ROUTES.segmentsExplain, { expression: "tem plano", subscriptionId: "999" })).body.error.code).toBe("subscriber_not_found");
      expect((await admin.post(API_ROUTES.segmentsExplain, { expression: "tem plano" })).status).toBe(400);
      expect((await admin.post(API_ROUTES.segmentsExplain, { userId: "ana" })).status).toBe(400);
      expect((await admin.post(API_ROUTES.segmentsExplain, { expression: "tem plano (", userId: "ana" })).body.error).toMatchObject({ code: "segment_syntax", position: 10 });
      expect((await publisher.post(API_ROUTES.segmentsExplain, { expression: "tem plano", userId: "ana" })).status).toBe(403);
      expect((await publishToken.post(API_ROUTES.segmentsExplain, { expression: "tem plano", userId: "ana" })).status).toBe(403);
    });
  });
}
