import { describe, expect, it } from "vitest";
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
      renotify: true,
      data: { url: "/avisos/7", data: { notificationId: "7" } },
    });
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
});
