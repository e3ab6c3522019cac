import { describe, expect, it } from "vitest";
import { COMPOSE_LIMITS, initialComposeValues, isAllowedLink, parseAppBadge, parseData, toNotificationRequest, validateCompose } from "./compose-form.js";
import type { ComposeValues } from "./compose-form.js";

const ZONE = "America/Sao_Paulo";
const NOW = Date.UTC(2025, 6, 10, 12, 0); // 09:00 in São Paulo
const context = { now: NOW, siteOrigin: "https://sino.example", timeZone: ZONE };
const valid = (patch: Partial<ComposeValues> = {}): ComposeValues => ({ ...initialComposeValues(NOW, ZONE), title: "Olá", ...patch });

describe("links a notification may open", () => {
  it.each([
    ["https://example.com/a", true],
    ["/avisos?x=1", true],
    ["https://sino.example/x", true],
    ["http://sino.example/x", false],
    ["http://example.com", false],
    ["//evil.example/x", false],
    ["/\\evil.example", false],
    ["javascript:alert(1)", false],
    ["data:text/html,x", false],
    ["avisos", false],
  ])("%s → %s", (value, allowed) => {
    expect(isAllowedLink(value, "https://sino.example")).toBe(allowed);
  });

  it("accepts the site's own http origin (a test server on localhost)", () => {
    expect(isAllowedLink("http://localhost:8080/x", "http://localhost:8080")).toBe(true);
  });
});

describe("validateCompose", () => {
  it("accepts a form with only a title", () => {
    expect(validateCompose(valid(), context)).toEqual({});
  });

  it("requires a title that is not only spaces, and caps its length", () => {
    expect(validateCompose(valid({ title: "   " }), context)).toEqual({ title: "dashboard.compose.errors.titleRequired" });
    expect(validateCompose(valid({ title: "x".repeat(COMPOSE_LIMITS.title) }), context)).toEqual({});
    expect(validateCompose(valid({ title: "x".repeat(COMPOSE_LIMITS.title + 1) }), context)).toEqual({ title: "dashboard.compose.errors.titleTooLong" });
  });

  it("caps the body", () => {
    expect(validateCompose(valid({ body: "x".repeat(COMPOSE_LIMITS.body + 1) }), context)).toEqual({ body: "dashboard.compose.errors.bodyTooLong" });
  });

  it("puts each bad address beside its own field", () => {
    expect(validateCompose(valid({ url: "http://x.example", icon: "ftp://x", image: "nada" }), context)).toEqual({
      url: "dashboard.compose.errors.urlInvalid",
      icon: "dashboard.compose.errors.iconInvalid",
      image: "dashboard.compose.errors.imageInvalid",
    });
  });

  it("refuses a schedule in the past, read in São Paulo time", () => {
    // 08:59 in São Paulo is before NOW (09:00 there) even though 08:59 UTC would be too.
    expect(validateCompose(valid({ when: "later", date: "2025-07-10", time: "08:59" }), context)).toEqual({ time: "dashboard.compose.errors.scheduleInPast" });
    expect(validateCompose(valid({ when: "later", date: "2025-07-10", time: "09:01" }), context)).toEqual({});
    expect(validateCompose(valid({ when: "later", date: "", time: "" }), context)).toEqual({
      date: "dashboard.compose.errors.dateRequired",
      time: "dashboard.compose.errors.timeRequired",
    });
  });

  it("ignores the schedule fields when sending now", () => {
    expect(validateCompose(valid({ when: "now", date: "", time: "" }), context)).toEqual({});
  });
});

describe("toNotificationRequest", () => {
  it("trims, leaves out empty fields and converts the schedule to an instant", () => {
    const request = toNotificationRequest(valid({ title: " Oi ", body: " ", url: "/avisos", when: "later", date: "2025-07-11", time: "14:00" }), {
      timeZone: ZONE,
      audience: { type: "all" },
    });
    expect(request).toEqual({ title: "Oi", url: "/avisos", urgency: "normal", ttl: 86_400, audience: { type: "all" }, sendAt: "2025-07-11T17:00:00.000Z" });
  });

  it("never schedules a test send to the operator's own browser", () => {
    const request = toNotificationRequest(valid({ when: "later", date: "2025-07-11", time: "14:00" }), {
      timeZone: ZONE,
      audience: { type: "endpoint", endpoint: "https://push.example/1" },
    });
    expect(request.sendAt).toBeUndefined();
  });
});

describe("initialComposeValues", () => {
  it("proposes the next full hour at least an hour ahead, in the zone", () => {
    expect(initialComposeValues(NOW, ZONE)).toMatchObject({ date: "2025-07-10", time: "10:00", when: "now", urgency: "normal" });
  });
});

describe("the full notification's fields", () => {
  it("checks each action button beside its own fields, like the main link", () => {
    const actions = [
      { label: "", url: "/pedido" },
      { label: "x".repeat(31), url: "javascript:alert(1)" },
    ];
    expect(validateCompose(valid({ actions }), context)).toEqual({
      "actions.0.label": "dashboard.compose.full.errors.actionLabelRequired",
      "actions.1.label": "dashboard.compose.full.errors.actionLabelTooLong",
      "actions.1.url": "dashboard.compose.full.errors.actionLinkInvalid",
    });
    expect(validateCompose(valid({ actions: [{ label: "Ver", url: " " }] }), context)).toEqual({ "actions.0.url": "dashboard.compose.full.errors.actionLinkRequired" });
    expect(validateCompose(valid({ actions: [{ label: "x".repeat(30), url: "https://loja.example/p" }] }), context)).toEqual({});
  });

  it("leaves out a button row left empty", () => {
    expect(validateCompose(valid({ actions: [{ label: " ", url: "" }] }), context)).toEqual({});
    expect(toNotificationRequest(valid({ actions: [{ label: "", url: "" }, { label: " Ver ", url: "/p " }] }), { timeZone: ZONE, audience: { type: "all" } }).actions).toEqual([{ label: "Ver", url: "/p" }]);
  });

  it("checks the badge like the icon, the app badge as a count and the data as JSON of at most 1 KB", () => {
    expect(validateCompose(valid({ badge: "http://x.example/b.png", appBadge: "1.5", data: "{nope" }), context)).toEqual({
      badge: "dashboard.compose.full.errors.badgeInvalid",
      appBadge: "dashboard.compose.full.errors.appBadgeInvalid",
      data: "dashboard.compose.full.errors.dataInvalid",
    });
    expect(validateCompose(valid({ appBadge: "100000" }), context)).toEqual({ appBadge: "dashboard.compose.full.errors.appBadgeInvalid" });
    expect(validateCompose(valid({ appBadge: "99999", data: "null" }), context)).toEqual({});
    // 1,024 bytes of compact JSON pass, one more does not (UTF-8: "é" is two bytes).
    const fits = JSON.stringify({ k: "é".repeat((1_024 - 8) / 2) });
    expect(new TextEncoder().encode(fits).length).toBe(1_024);
    expect(validateCompose(valid({ data: fits }), context)).toEqual({});
    expect(validateCompose(valid({ data: JSON.stringify({ k: "é".repeat((1_024 - 8) / 2) + "x" }) }), context)).toEqual({ data: "dashboard.compose.full.errors.dataTooLarge" });
  });

  it("measures the data as the server does: compact JSON, whatever the spacing typed", () => {
    expect(parseData('{\n  "tela": "pedido"\n}')).toEqual({ ok: true, value: { tela: "pedido" }, bytes: 17 });
    expect(parseData("  ")).toBeNull();
    expect(parseAppBadge("")).toBeNull();
    expect(parseAppBadge(" 7 ")).toBe(7);
  });

  it("sends renotify only with a collapse key, and the switches only when on", () => {
    const values = valid({ renotify: true, requireInteraction: true, silent: false, badge: "/selo.png", appBadge: "3", data: '{"tela":"pedido"}' });
    const without = toNotificationRequest(values, { timeZone: ZONE, audience: { type: "all" } });
    expect(without).toEqual({ title: "Olá", urgency: "normal", ttl: 86_400, audience: { type: "all" }, requireInteraction: true, badge: "/selo.png", appBadge: 3, data: { tela: "pedido" } });
    const withKey = toNotificationRequest(values, { timeZone: ZONE, audience: { type: "all" }, collapseKey: " pedido-1 " });
    expect(withKey).toMatchObject({ collapseKey: "pedido-1", renotify: true });
  });
});
