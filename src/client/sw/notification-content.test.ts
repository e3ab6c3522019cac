import { describe, expect, it } from "vitest";
import { classicPayload, declarativePayload } from "../../shared/api/notification-payload.js";
import { buildNotification } from "./notification-content.js";

const texts = { defaultTitle: "Sino", fallbackBody: "Você tem um novo aviso." };

describe("buildNotification", () => {
  it("shows every field of a full payload", () => {
    const payload = {
      title: "Manutenção programada",
      body: "O sistema fica fora do ar às 22h.",
      icon: "/icon.png",
      image: "https://cdn.example.com/banner.jpg",
      badge: "/badge.png",
      tag: "manutencao",
      url: "/avisos/7",
      data: { notificationId: "7" },
    };
    const { title, options } = buildNotification(JSON.stringify(payload), texts);
    expect(title).toBe("Manutenção programada");
    expect(options).toMatchObject({
      body: "O sistema fica fora do ar às 22h.",
      icon: "/icon.png",
      image: "https://cdn.example.com/banner.jpg",
      badge: "/badge.png",
      tag: "manutencao",
      data: { url: "/avisos/7", data: { notificationId: "7" } },
    });
    // renotify is the sender's choice now, never implied by a tag.
    expect(options).not.toHaveProperty("renotify");
  });

  it("shows the fallback for an empty push (no silent push)", () => {
    expect(buildNotification(null, texts)).toEqual({ title: "Sino", options: { body: "Você tem um novo aviso.", data: { url: null } } });
    expect(buildNotification("", texts).options.body).toBe("Você tem um novo aviso.");
  });

  it("shows a plain-text payload as the body", () => {
    expect(buildNotification("Backup concluído", texts)).toMatchObject({ title: "Sino", options: { body: "Backup concluído" } });
  });

  it.each([
    ["a JSON array", "[1,2]"],
    ["a JSON number", "42"],
    ["an object with neither title nor body", '{"icon":"/x.png"}'],
    ["an object whose title is not a string", '{"title":{"x":1}}'],
  ])("falls back to the default title for %s", (_name, text) => {
    const { title, options } = buildNotification(text, texts);
    expect(title).toBe("Sino");
    expect(options.icon).toBeUndefined();
    expect(typeof options.body).toBe("string");
  });

  it("uses the default title when only a body is given", () => {
    expect(buildNotification('{"body":"Só o corpo"}', texts)).toMatchObject({ title: "Sino", options: { body: "Só o corpo" } });
  });

  it("ignores fields of the wrong type", () => {
    const { options } = buildNotification('{"title":"T","icon":5,"tag":null,"url":["x"]}', texts);
    expect(options.icon).toBeUndefined();
    expect(options.tag).toBeUndefined();
    expect(options.data).toEqual({ url: null, data: undefined });
  });

  it("bounds very long texts", () => {
    const { title, options } = buildNotification(JSON.stringify({ title: "t".repeat(5000), body: "b".repeat(50_000) }), texts);
    expect(title.length).toBe(250);
    expect(options.body?.length).toBe(1000);
    expect(options.body?.endsWith("…")).toBe(true);
  });

  it("keeps the send's id for the event reports", () => {
    expect(buildNotification('{"title":"T","id":"42"}', texts).options.data).toMatchObject({ notificationId: "42" });
    expect(buildNotification('{"title":"T","id":42}', texts).options.data).toMatchObject({ notificationId: "42" });
  });

  it("carries no id when the payload has none or a malformed one", () => {
    expect(buildNotification('{"title":"T"}', texts).options.data).not.toHaveProperty("notificationId");
    expect(buildNotification('{"title":"T","id":{"x":1}}', texts).options.data).not.toHaveProperty("notificationId");
    expect(buildNotification('{"title":"T","id":""}', texts).options.data).not.toHaveProperty("notificationId");
  });

  describe("the full notification (issue 19)", () => {
    const fields = {
      title: "Vacinação",
      body: "Postos abertos no sábado",
      url: "/avisos/9",
      icon: "/icon.png",
      image: "/banner.png",
      badge: "/badge.png",
      tag: "vacina",
      renotify: true,
      requireInteraction: true,
      silent: true,
      actions: [
        { label: "Ver postos", url: "/postos" },
        { label: "Agendar", url: "https://agenda.gov.br/" },
      ],
      appBadge: 3,
      data: { rota: "/vacinas", campanha: 7 },
      id: "9",
    };

    it("shows a classic payload with every new member", () => {
      const content = buildNotification(classicPayload(fields), texts);
      expect(content.title).toBe("Vacinação");
      expect(content.appBadge).toBe(3);
      expect(content.options).toMatchObject({
        body: "Postos abertos no sábado",
        tag: "vacina",
        renotify: true,
        requireInteraction: true,
        silent: true,
        badge: "/badge.png",
        actions: [
          { action: "1", title: "Ver postos" },
          { action: "2", title: "Agendar" },
        ],
        data: { url: "/avisos/9", notificationId: "9", data: { rota: "/vacinas", campanha: 7 }, actions: { "1": "/postos", "2": "https://agenda.gov.br/" } },
      });
    });

    it("shows a declarative push message from its notification member, the same as the classic one", () => {
      const content = buildNotification(declarativePayload(fields, "https://sino.example.com.br"), texts);
      expect(content.title).toBe("Vacinação");
      expect(content.appBadge).toBe(3);
      expect(content.options).toMatchObject({
        body: "Postos abertos no sábado",
        lang: "pt-BR",
        dir: "ltr",
        tag: "vacina",
        renotify: true,
        requireInteraction: true,
        silent: true,
        icon: "https://sino.example.com.br/icon.png",
        image: "https://sino.example.com.br/banner.png",
        badge: "https://sino.example.com.br/badge.png",
        actions: [
          { action: "1", title: "Ver postos" },
          { action: "2", title: "Agendar" },
        ],
        data: {
          url: "https://sino.example.com.br/avisos/9",
          notificationId: "9",
          data: { rota: "/vacinas", campanha: 7 },
          actions: { "1": "https://sino.example.com.br/postos", "2": "https://agenda.gov.br/" },
        },
      });
    });

    it("leaves out what a minimal send does not set", () => {
      for (const text of [classicPayload({ title: "T", tag: "sino-1", id: "1" }), declarativePayload({ title: "T", tag: "sino-1", id: "1" }, "https://s.example")]) {
        const { options, appBadge } = buildNotification(text, texts);
        expect(appBadge).toBeUndefined();
        for (const key of ["renotify", "requireInteraction", "silent", "actions"]) expect(options).not.toHaveProperty(key);
        expect(options.data).toMatchObject({ notificationId: "1" });
      }
    });

    it("never asks renotify without a tag (showNotification would throw)", () => {
      expect(buildNotification('{"title":"T","renotify":true}', texts).options).not.toHaveProperty("renotify");
    });

    it("keeps only Sino's two action ids, once each, and bounds their labels", () => {
      const payload = {
        title: "T",
        actions: [
          { action: "1", title: "Um", url: "/1" },
          { action: "1", title: "Repetido", url: "/x" },
          { action: "3", title: "Três", url: "/3" },
          { action: "2", title: "d".repeat(500), url: "/2" },
          { action: "2", title: "", url: "/y" },
          "lixo",
        ],
      };
      const { options } = buildNotification(JSON.stringify(payload), texts);
      expect(options.actions?.map((a) => a.action)).toEqual(["1", "2"]);
      expect(options.actions?.[1]?.title.length).toBe(60);
      expect(options.data).toMatchObject({ actions: { "1": "/1", "2": "/2" } });
    });

    it.each([
      ["a negative number", -1],
      ["a fraction", 1.5],
      ["a word", "muitos"],
      ["an object", { n: 1 }],
    ])("ignores an app badge that is %s", (_name, appBadge) => {
      expect(buildNotification(JSON.stringify({ title: "T", appBadge }), texts).appBadge).toBeUndefined();
    });

    it("reads a declarative app badge given as a numeric string", () => {
      const text = JSON.stringify({ web_push: 8030, notification: { title: "T", navigate: "https://s.example/" }, app_badge: "12" });
      expect(buildNotification(text, texts).appBadge).toBe(12);
    });

    it("shows the fallback for a declarative message without a usable notification", () => {
      for (const text of ['{"web_push":8030}', '{"web_push":8030,"notification":{"body":"sem título"}}', '{"web_push":8030,"notification":[1]}']) {
        expect(buildNotification(text, texts).title).toBe("Sino");
      }
    });
  });
});
