/** `sino templates list` and `sino send --template` against a real server. */
import { beforeAll, describe, expect, it } from "vitest";
import { usePublishingServer } from "../../test/support/publishing-server.js";
import { runCli } from "./main.js";
import { captureIo, clearExitCodeAroundEachTest } from "../../test/support/cli.js";

/** The template's content and audience: what it is saved with, and what a send from it carries. */
const PROMO = {
  title: "Ofertas da semana",
  body: "Até 50% de desconto",
  url: "https://exemplo.com.br/ofertas",
  icon: "https://exemplo.com.br/i.png",
  image: "https://exemplo.com.br/banner.png",
  urgency: "low",
  ttl: 21_600,
  collapseKey: "ofertas",
  audience: { type: "channels", channels: ["obras"], sites: ["1"] },
};

describe("sino templates and sino send --template", () => {
  const setup = usePublishingServer();
  let promo: string;
  beforeAll(async () => {
    expect((await setup.admin.post("/api/v1/channels", { name: "Obras", slug: "obras" })).status).toBe(201);
    const created = await setup.admin.post("/api/v1/templates", { name: "Promoção", ...PROMO });
    expect(created.status).toBe(201);
    promo = created.body.template.id;
  });
  clearExitCodeAroundEachTest();

  it("lists the templates with their audience", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["templates", "list", "--server", setup.server.url], io);
    expect(io.err).toEqual([]);
    expect(process.exitCode ?? 0).toBe(0);
    expect(io.out.join("")).toBe(`${promo}\tPromoção\tOfertas da semana\tcanal obras, no site 1\n`);
  });

  it("sends a template's content and audience, its name in any case", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--template", "promoção"], io);
    expect(io.err).toEqual([]);
    expect(process.exitCode).toBe(0);
    const id = /Envio (\d+)/.exec(io.out.join(""))![1];
    expect((await setup.admin.get(`/api/v1/notifications/${id}`)).body.notification).toMatchObject(PROMO);
  });

  it("lets the other options override the template (title, body, audience)", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--template", promo, "--title", "Só hoje", "--channel", "todos"], io);
    expect(process.exitCode).toBe(0);
    const id = /Envio (\d+)/.exec(io.out.join(""))![1];
    expect((await setup.admin.get(`/api/v1/notifications/${id}`)).body.notification).toMatchObject({ title: "Só hoje", body: "Até 50% de desconto", audience: { type: "all" } });
  });

  it("exits 1 naming an unknown template, and 2 with neither a title nor a template", async () => {
    const unknown = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--template", "Natal"], unknown);
    expect(process.exitCode).toBe(1);
    expect(unknown.err.join("")).toBe('Nenhum modelo se chama "Natal". Veja a lista com sino templates list.\n');

    process.exitCode = undefined;
    const none = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url], none);
    expect(process.exitCode).toBe(2);
    expect(none.err.join("")).toContain("Informe o título com --title ou um modelo com --template.");
  });
});
