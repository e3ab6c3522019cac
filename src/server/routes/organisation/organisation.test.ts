/**
 * The organisation's identity over HTTP, on SQLite and PostgreSQL: admins set the name, accent
 * colour and logo (validated, nothing half-stored), everyone reads them (the API, the public
 * configuration the bells read, the web app manifest), and the logo is served with a validator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { addUser, errorOf, setUpAdmin, startOperatorServer, type ApiClient, type OperatorServer } from "../../../../test/support/operators.js";
import { solidPng } from "../../../../test/support/png.js";
import { ORGANISATION_LOGO_MAX_BYTES } from "../../../shared/api/organisation.js";

const PUBLIC_URL = "https://sino.prefeitura.example";

for (const dialect of DIALECTS) {
  describe(`the organisation's identity on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: { SINO_PUBLIC_URL: PUBLIC_URL } });
      admin = await setUpAdmin(server);
    });
    afterAll(async () => {
      await server.close();
    });

    const publicGet = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });

    it("is unset at first: Sino's own name, colour and icon everywhere", async () => {
      const read = await (await publicGet("/api/v1/organisation")).json();
      expect(read).toEqual({ organisation: { name: null, accentColor: null, logoUrl: null, updatedAt: null } });
      const config = await (await publicGet("/api/v1/config")).json();
      expect(config.organisation).toEqual(read.organisation);
      expect((await publicGet("/api/v1/organisation/logo")).status).toBe(404);
    });

    it("lets an admin set the name, accent colour and logo, shown to everyone and in the manifest", async () => {
      const logo = solidPng(192, 192, [0x1d, 0x4e, 0x89]);
      const saved = await admin.put("/api/v1/organisation", { name: "  Prefeitura de Exemplo ", accentColor: "#7A1F5C", logo: { data: logo.toString("base64") } });
      expect(saved.status).toBe(200);
      const organisation = saved.body.organisation;
      expect(organisation).toMatchObject({ name: "Prefeitura de Exemplo", accentColor: "#7a1f5c" });
      expect(organisation.logoUrl).toMatch(new RegExp(`^${PUBLIC_URL}/api/v1/organisation/logo\\?v=\\d+$`));
      expect(Date.parse(organisation.updatedAt)).not.toBeNaN();

      expect((await (await publicGet("/api/v1/organisation")).json()).organisation).toEqual(organisation);
      expect((await (await publicGet("/api/v1/config")).json()).organisation).toEqual(organisation);

      const path = new URL(organisation.logoUrl).pathname + new URL(organisation.logoUrl).search;
      const image = await publicGet(path);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/png");
      expect(image.headers.get("cache-control")).toBe("public, max-age=86400");
      expect(image.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      expect(Buffer.from(await image.arrayBuffer()).equals(logo)).toBe(true);
      const etag = image.headers.get("etag")!;
      const again = await publicGet(path, { "if-none-match": etag });
      expect(again.status).toBe(304);

      const manifest = await publicGet("/manifest.webmanifest");
      expect(manifest.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
      const body = await manifest.json();
      expect(body).toMatchObject({ short_name: "Prefeitura de Exemplo", theme_color: "#7a1f5c", lang: "pt-BR", start_url: "/" });
      expect(body.name).toContain("Prefeitura de Exemplo");
      expect(body.icons[0]).toEqual({ src: organisation.logoUrl, sizes: "192x192", type: "image/png", purpose: "any" });
    });

    it("changes only what is sent, and clears a field sent as null", async () => {
      const before = (await admin.get("/api/v1/organisation")).body.organisation;
      const renamed = await admin.put("/api/v1/organisation", { name: "Prefeitura Municipal" });
      expect(renamed.body.organisation).toMatchObject({ name: "Prefeitura Municipal", accentColor: before.accentColor });
      expect(renamed.body.organisation.logoUrl).not.toBeNull();
      const cleared = await admin.put("/api/v1/organisation", { accentColor: null, logo: null });
      expect(cleared.body.organisation).toMatchObject({ name: "Prefeitura Municipal", accentColor: null, logoUrl: null });
      expect((await publicGet("/api/v1/organisation/logo")).status).toBe(404);
      const manifest = await (await publicGet("/manifest.webmanifest")).json();
      expect(manifest.theme_color).toBe("#1d4e89");
      expect(manifest.icons.map((icon: { src: string }) => icon.src)).toEqual(["/icon.svg"]);
    });

    it("refuses bad input with a pt-BR error naming the limit, and stores nothing of it", async () => {
      const before = (await admin.get("/api/v1/organisation")).body.organisation;
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      const tooBig = Buffer.concat([solidPng(8, 8, [0, 0, 0]), Buffer.alloc(ORGANISATION_LOGO_MAX_BYTES)]);
      const cases: [unknown, string, string][] = [
        [{ name: "" }, "organisation_name_invalid", "name"],
        [{ name: "x".repeat(61) }, "organisation_name_invalid", "name"],
        [{ accentColor: "azul" }, "organisation_accent_invalid", "accentColor"],
        // Yellow on white: unreadable buttons and links.
        [{ name: "Novo nome", accentColor: "#ffeb3b" }, "organisation_accent_low_contrast", "accentColor"],
        [{ logo: { data: svg.toString("base64") } }, "organisation_logo_invalid", "logo.data"],
        [{ logo: { data: "não é base64!" } }, "organisation_logo_invalid", "logo.data"],
        [{ logo: { data: tooBig.toString("base64") } }, "organisation_logo_too_large", "logo.data"],
      ];
      for (const [body, code, field] of cases) {
        const answer = await admin.put("/api/v1/organisation", body);
        expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(answer.body.error.code).toBe(code);
        expect(answer.body.error.field).toBe(field);
      }
      expect(errorOf("organisation_logo_too_large").error.message).toContain("256 KB");
      expect(errorOf("organisation_name_invalid").error.message).toContain("60");
      expect(errorOf("organisation_accent_low_contrast").error.message).toContain("4,5:1");
      // Unknown fields are refused, not ignored.
      expect((await admin.put("/api/v1/organisation", { name: "Outro", cor: "#000000" })).status).toBe(400);
      expect((await admin.get("/api/v1/organisation")).body.organisation).toEqual(before);
    });

    it("lets only admins change it", async () => {
      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.put("/api/v1/organisation", { name: "Invasor" })).status).toBe(403);
      const anonymous = await fetch(`${server.url}/api/v1/organisation`, { method: "PUT", headers: { "content-type": "application/json", origin: server.origin }, body: '{"name":"Invasor"}' });
      expect(anonymous.status).toBe(401);
      expect((await admin.get("/api/v1/organisation")).body.organisation.name).not.toBe("Invasor");
    });
  });
}
