/**
 * Templates over HTTP, on SQLite and PostgreSQL: saving every field a send takes, the rules of
 * those fields, names unique in any case, an audience that must exist, who may do what.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ApiClient, addToken, addUser, errorOf, setUpAdmin } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";

const TEMPLATES = "/api/v1/templates";

const FULL = {
  name: "Manutenção programada",
  title: "Manutenção às 22h",
  body: "O sistema fica fora do ar\npor 30 minutos.",
  url: "https://exemplo.com.br/status",
  icon: "https://exemplo.com.br/icone.png",
  image: "/imagens/manutencao.png",
  urgency: "high",
  ttl: 3_600,
  collapseKey: "manutencao",
};

for (const dialect of DIALECTS) {
  describe(`templates on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    beforeAll(async () => {
      server = await startTestServer({ dialect, env: { SINO_WORKER_EMBEDDED: "false" } });
      admin = await setUpAdmin({ url: server.url, origin: server.url });
      expect((await admin.post("/api/v1/channels", { name: "Obras", slug: "obras" })).status).toBe(201);
    });
    afterAll(async () => {
      await server.close();
    });

    it("saves every field of a send, lists by name, reads, changes and deletes", async () => {
      const created = await admin.post(TEMPLATES, { ...FULL, audience: { type: "channels", channels: ["obras", "obras"], sites: ["1"] } });
      expect(created.status).toBe(201);
      expect(created.body.template).toMatchObject({ ...FULL, audience: { type: "channels", channels: ["obras"], sites: ["1"] } });
      const plain = await admin.post(TEMPLATES, { name: "aviso simples", title: "Olá" });
      expect(plain.body.template).toMatchObject({ title: "Olá", body: null, url: null, icon: null, image: null, urgency: "normal", ttl: 86_400, collapseKey: null, audience: null });

      expect((await admin.get(TEMPLATES)).body.templates.map((t: { name: string }) => t.name)).toEqual(["aviso simples", "Manutenção programada"]);
      const id = created.body.template.id;
      expect((await admin.get(`${TEMPLATES}/${id}`)).body.template).toEqual(created.body.template);

      const changed = await admin.patch(`${TEMPLATES}/${id}`, { title: "Manutenção às 23h", body: null, icon: "", audience: { type: "all" }, urgency: "low" });
      expect(changed.status).toBe(200);
      expect(changed.body.template).toMatchObject({ name: FULL.name, title: "Manutenção às 23h", body: null, icon: null, url: FULL.url, urgency: "low", audience: { type: "all" } });
      expect((await admin.patch(`${TEMPLATES}/${id}`, { audience: null })).body.template.audience).toBeNull();

      expect((await admin.delete(`${TEMPLATES}/${id}`)).status).toBe(204);
      expect(await admin.get(`${TEMPLATES}/${id}`)).toMatchObject({ status: 404, body: errorOf("template_not_found") });
      expect((await admin.delete(`${TEMPLATES}/${plain.body.template.id}`)).status).toBe(204);
    });

    it("refuses a taken name in any case, a bad name, and each field as a send would", async () => {
      expect((await admin.post(TEMPLATES, { name: "Promoção", title: "x" })).status).toBe(201);
      expect(await admin.post(TEMPLATES, { name: "PROMOÇÃO", title: "y" })).toMatchObject({ status: 409, body: errorOf("template_name_taken", "name") });
      expect(await admin.post(TEMPLATES, { name: "  ", title: "y" })).toMatchObject({ status: 400, body: errorOf("template_name_invalid", "name") });
      expect((await admin.post(TEMPLATES, { name: "x".repeat(81), title: "y" })).body.error.code).toBe("template_name_invalid");
      const bad = async (body: Record<string, unknown>) => (await admin.post(TEMPLATES, { name: "Outro", title: "t", ...body })).body.error;
      expect(await bad({ title: "" })).toMatchObject({ code: "title_required", field: "title" });
      expect(await bad({ title: "x".repeat(81) })).toMatchObject({ code: "title_too_long" });
      expect(await bad({ body: "x".repeat(301) })).toMatchObject({ code: "body_too_long" });
      expect(await bad({ url: "javascript:alert(1)" })).toMatchObject({ code: "link_invalid", field: "url" });
      // http only on Sino's own origin, as in a send.
      expect(await bad({ icon: "http://outro.example.com/i.png" })).toMatchObject({ code: "link_invalid", field: "icon" });
      expect(await bad({ urgency: "urgente" })).toMatchObject({ code: "urgency_invalid" });
      expect(await bad({ ttl: 29 * 86_400 })).toMatchObject({ code: "ttl_invalid" });
      expect(await bad({ audience: { type: "channels", channels: ["nao-existe"] } })).toMatchObject({ code: "channel_not_found", field: "audience.channels" });
      expect(await bad({ audience: { type: "all", sites: ["999"] } })).toMatchObject({ code: "audience_site_not_found", field: "audience.sites" });
      expect(await bad({ audience: { type: "segment", segment: "999" } })).toMatchObject({ code: "segment_not_found", field: "audience.segment" });
      // People and "this browser" are one send's business.
      expect((await admin.post(TEMPLATES, { name: "Outro", title: "t", audience: { type: "users", users: ["ana"] } })).status).toBe(400);
      expect((await admin.post(TEMPLATES, { name: "Outro", title: "t", foo: 1 })).status).toBe(400);
      expect((await admin.get(TEMPLATES)).body.templates.map((t: { name: string }) => t.name)).toEqual(["Promoção"]);

      const other = await admin.post(TEMPLATES, { name: "Segundo", title: "t" });
      expect(await admin.patch(`${TEMPLATES}/${other.body.template.id}`, { name: "promoção" })).toMatchObject({ status: 409, body: errorOf("template_name_taken", "name") });
      expect((await admin.patch(`${TEMPLATES}/999999`, { title: "x" })).status).toBe(404);
      expect((await admin.delete(`${TEMPLATES}/999999`)).status).toBe(404);
    });

    it("keeps a saved segment as a template's audience", async () => {
      const segment = await admin.post("/api/v1/segments", { name: "VIP", expression: { tag: "vip", op: "exists" } });
      expect(segment.status).toBe(201);
      const created = await admin.post(TEMPLATES, { name: "Para VIPs", title: "Oferta", audience: { type: "segment", segment: Number(segment.body.segment.id) } });
      expect(created.body.template.audience).toEqual({ type: "segment", segment: segment.body.segment.id });
    });

    it("documents the routes with their operation ids", async () => {
      const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
      expect(doc.paths["/api/v1/templates"].get.operationId).toBe("listTemplates");
      expect(doc.paths["/api/v1/templates"].post.operationId).toBe("createTemplate");
      expect(doc.paths["/api/v1/templates/{id}"].patch.operationId).toBe("updateTemplate");
      expect(doc.paths["/api/v1/templates/{id}"].delete.operationId).toBe("deleteTemplate");
      expect(doc.paths["/api/v1/templates"].post.tags).toEqual(["Modelos"]);
      expect(doc.paths["/api/v1/notifications/{id}"].patch.operationId).toBe("updateNotification");
      expect(doc.paths["/api/v1/notifications/{id}"].patch.requestBody.content["application/json"].schema.additionalProperties).toBe(false);
    });

    it("lets any operator and token use templates, and no one signed out", async () => {
      const { client: publisher } = await addUser(admin, "publisher");
      const made = await publisher.post(TEMPLATES, { name: "Do publicador", title: "Oi" });
      expect(made.status).toBe(201);
      expect((await publisher.patch(`${TEMPLATES}/${made.body.template.id}`, { title: "Oi de novo" })).status).toBe(200);
      const script = new ApiClient({ url: server.url, origin: server.url }, { bearer: (await addToken(admin, "publish")).secret, origin: null });
      expect((await script.get(TEMPLATES)).body.templates.map((t: { name: string }) => t.name)).toContain("Do publicador");
      expect((await new ApiClient({ url: server.url, origin: server.url }).get(TEMPLATES)).status).toBe(401);
    });
  });
}
