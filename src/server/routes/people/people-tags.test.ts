/**
 * Trusted tags over HTTP on SQLite and PostgreSQL: GET/PUT/PATCH/DELETE on a person's tags, one
 * tag's DELETE, the rules (keys, values, 100 per person) refused with their codes and nothing
 * stored, who may (admins, admin tokens; not publishers nor publish tokens), typed values for
 * comparisons, and the bulk form tagging 10,000 people in one request, all or nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ApiClient, addToken, addUser, errorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";

for (const dialect of DIALECTS) {
  describe(`people's trusted tags on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let adminToken: ApiClient;

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: {} });
      admin = await setUpAdmin(server);
      adminToken = new ApiClient(server, { origin: null, bearer: (await addToken(admin, "admin")).secret });
    });
    afterAll(async () => {
      await server.close();
    });

    const path = (userId: string) => `/api/v1/people/${encodeURIComponent(userId)}/tags`;
    async function storedRows(personId: string) {
      return server.database.db
        .selectFrom("person_tags")
        .select(["key", "value", "num_value", "time_value"])
        .where("person_id", "=", personId)
        .orderBy("key")
        .execute();
    }

    it("replaces, merges, reads and removes a person's tags, typing numbers and dates", async () => {
      expect(await adminToken.get(path("cliente 1"))).toMatchObject({ status: 200, body: { tags: {} } });
      const put = await adminToken.request("PUT", path("cliente 1"), { tags: { plano: "premium", idade: 18, vip: true, nascimento: "2010-05-01", altura: "1.75" } });
      expect(put).toMatchObject({ status: 200, body: { tags: { altura: 1.75, idade: 18, nascimento: "2010-05-01", plano: "premium", vip: true } } });
      expect((await storedRows("cliente 1")).map((r) => [r.key, r.value, r.num_value === null ? null : Number(r.num_value), r.time_value === null ? null : Number(r.time_value)])).toEqual([
        ["altura", "1.75", 1.75, null],
        ["idade", "18", 18, null],
        ["nascimento", "2010-05-01", null, Date.UTC(2010, 4, 1)],
        ["plano", "premium", null, null],
        ["vip", null, null, null],
      ]);

      const patched = await admin.patch(path("cliente 1"), { tags: { plano: "básico", vip: null, bairro: "Cambuí" } });
      expect(patched.body.tags).toEqual({ altura: 1.75, bairro: "Cambuí", idade: 18, nascimento: "2010-05-01", plano: "básico" });
      expect((await admin.request("PUT", path("cliente 1"), { tags: { só: 1 } })).body).toEqual(errorOf("tag_key_invalid", "tags.só"));

      expect((await admin.delete(path("cliente 1") + "/idade")).status).toBe(204);
      expect((await admin.delete(path("cliente 1") + "/idade")).status).toBe(204);
      expect((await admin.get(path("cliente 1"))).body.tags).toEqual({ altura: 1.75, bairro: "Cambuí", nascimento: "2010-05-01", plano: "básico" });
      expect((await admin.delete(path("cliente 1"))).status).toBe(204);
      expect(await storedRows("cliente 1")).toEqual([]);
    });

    it("refuses invalid keys, values and more than 100 tags, storing nothing", async () => {
      await admin.request("PUT", path("cliente 2"), { tags: { plano: "premium" } });
      const cases: Array<[unknown, string, string]> = [
        [{ Plano: "x" }, "tag_key_invalid", "tags.Plano"],
        [{ ["k".repeat(65)]: "x" }, "tag_key_invalid", `tags.${"k".repeat(65)}`],
        [{ plano: " premium" }, "tag_value_invalid", "tags.plano"],
        [{ plano: "a\nb" }, "tag_value_invalid", "tags.plano"],
        [{ plano: "x".repeat(256) }, "tag_value_invalid", "tags.plano"],
        [{ plano: "" }, "tag_value_invalid", "tags.plano"],
        [{ plano: "a\u0000b" }, "tag_value_invalid", "tags.plano"],
        [{ plano: "a\u0085b" }, "tag_value_invalid", "tags.plano"],
        [{ ["a\u0000"]: "x" }, "tag_key_invalid", "tags.a\u0000"],
        [{ plano: false }, "tag_value_invalid", "tags.plano"],
        [{ plano: { a: 1 } }, "tag_value_invalid", "tags.plano"],
      ];
      for (const [tags, code, field] of cases) {
        const res = await admin.patch(path("cliente 2"), { tags });
        expect(res.status, JSON.stringify(tags)).toBe(400);
        expect(res.body, JSON.stringify(tags)).toEqual(errorOf(code, field));
      }
      const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`t${i}`, i]));
      expect((await admin.patch(path("cliente 2"), { tags: hundred })).body).toEqual(errorOf("too_many_tags", "tags"));
      expect((await admin.get(path("cliente 2"))).body.tags).toEqual({ plano: "premium" });
      expect((await admin.request("PUT", path("cliente 2"), { tags: hundred })).status).toBe(200);
      expect((await admin.request("PUT", path("cliente 2"), { tags: { ...hundred, mais: 1 } })).body).toEqual(errorOf("too_many_tags", "tags"));
      expect(Object.keys((await admin.get(path("cliente 2"))).body.tags)).toHaveLength(100);
      expect((await admin.get(path(" cliente"))).body.error.code).toBe("user_id_invalid");
    });

    it("lets admins and admin tokens tag people; refuses publishers, publish tokens and anonymous callers", async () => {
      const { client: publisher } = await addUser(admin, "publisher");
      const publishToken = new ApiClient(server, { origin: null, bearer: (await addToken(admin, "publish")).secret });
      for (const client of [publisher, publishToken]) {
        expect((await client.get(path("cliente 3"))).status).toBe(403);
        expect((await client.request("PUT", path("cliente 3"), { tags: { a: 1 } })).status).toBe(403);
        expect((await client.post("/api/v1/people/tags", { people: [{ userId: "cliente 3", tags: { a: 1 } }] })).status).toBe(403);
      }
      expect((await new ApiClient(server).get(path("cliente 3"))).status).toBe(401);
      expect(await storedRows("cliente 3")).toEqual([]);
    });

    it("tags 10,000 people in one request, and refuses a bad item or over 10,000 with nothing stored", { timeout: 120_000 }, async () => {
      const people = Array.from({ length: 10_000 }, (_, i) => ({ userId: `aluno-${i}`, tags: { turma: `5${"ABCD"[i % 4]}`, idade: 10 + (i % 3), matriculado: true } }));
      const res = await adminToken.post("/api/v1/people/tags", { people, mode: "merge" });
      expect(res).toMatchObject({ status: 200, body: { updated: 10_000 } });
      const count = await server.database.db
        .selectFrom("person_tags")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("person_id", "like", "aluno-%")
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(30_000);
      expect((await admin.get(path("aluno-9999"))).body.tags).toEqual({ idade: 10, matriculado: true, turma: "5D" });

      // Replace: the listed people's tags become exactly these.
      expect((await adminToken.post("/api/v1/people/tags", { people: [{ userId: "aluno-1", tags: { turma: "6A" } }], mode: "replace" })).body).toEqual({ updated: 1 });
      expect((await admin.get(path("aluno-1"))).body.tags).toEqual({ turma: "6A" });

      // One bad item refuses the whole request, naming it.
      const bad = [{ userId: "aluno-2", tags: { turma: "7A" } }, { userId: "aluno-3", tags: { turma: "7A" } }, { userId: "aluno-4", tags: { Turma: "7A" } }];
      expect((await adminToken.post("/api/v1/people/tags", { people: bad })).body).toEqual(errorOf("tag_key_invalid", "people.2.tags.Turma"));
      const full = Object.fromEntries(Array.from({ length: 98 }, (_, i) => [`t${i}`, i]));
      expect((await adminToken.post("/api/v1/people/tags", { people: [{ userId: "aluno-5", tags: { turma: "7A" } }, { userId: "aluno-6", tags: full }] })).body).toEqual(
        errorOf("too_many_tags", "people.1.tags"),
      );
      expect((await admin.get(path("aluno-5"))).body.tags.turma).toBe("5B");
      // A person listed twice: merge combines the entries in order, replace keeps the last.
      const twice = [{ userId: "aluno-7", tags: { turma: "8A", cor: "azul" } }, { userId: "aluno-7", tags: { turma: "8B" } }];
      expect((await adminToken.post("/api/v1/people/tags", { people: twice })).body).toEqual({ updated: 1 });
      expect((await admin.get(path("aluno-7"))).body.tags).toEqual({ cor: "azul", idade: 11, matriculado: true, turma: "8B" });
      expect((await adminToken.post("/api/v1/people/tags", { people: twice, mode: "replace" })).body).toEqual({ updated: 1 });
      expect((await admin.get(path("aluno-7"))).body.tags).toEqual({ turma: "8B" });
      const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ userId: `x${i}`, tags: { a: true } }));
      expect((await adminToken.post("/api/v1/people/tags", { people: tooMany })).body).toEqual(errorOf("too_many_people", "people"));
    });
  });
}
