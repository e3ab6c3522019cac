import { describe, expect, it } from "vitest";
import type { Notification } from "../../../shared/api/notifications.js";
import type { Template } from "../../../shared/api/templates.js";
import { draftFromNotification, draftFromTemplate, templateRequestOf } from "./compose-prefill.js";

const CONTEXT = { now: Date.parse("2026-11-20T12:10:00Z"), timeZone: "America/Sao_Paulo" };

const aTemplate = (overrides: Partial<Template> = {}): Template => ({
  id: "7",
  name: "Promoção",
  title: "Ofertas",
  body: "Até 50%",
  url: "/ofertas",
  icon: null,
  image: "https://exemplo.com.br/b.png",
  urgency: "low",
  ttl: 600,
  collapseKey: "ofertas",
  audience: null,
  createdAt: "2026-11-01T00:00:00.000Z",
  updatedAt: "2026-11-01T00:00:00.000Z",
  actions: [],
  renotify: false,
  requireInteraction: false,
  silent: false,
  badge: null,
  appBadge: null,
  data: null,
  ...overrides,
});

const aSend = (overrides: Partial<Notification> = {}): Notification => ({
  id: "42",
  title: "Aviso",
  body: null,
  url: null,
  icon: "https://exemplo.com.br/i.png",
  image: null,
  urgency: "high",
  ttl: 3_600,
  audience: { type: "all" },
  category: "marketing",
  collapseKey: null,
  status: "scheduled",
  sendAt: "2026-11-21T21:30:00.000Z",
  createdAt: "2026-11-20T12:00:00.000Z",
  finishedAt: null,
  notice: "public",
  counts: { queued: 0, accepted: 0, retrying: 0, failed: 0, removed: 0, limited: 0, asleep: 0, waiting: 0, expired: 0 },
  waitingUntil: null,
  actions: [],
  renotify: false,
  requireInteraction: false,
  silent: false,
  badge: null,
  appBadge: null,
  data: null,
  exempt: false,
  reengagement: false,
  ...overrides,
});

describe("compose filled from a template or a send", () => {
  it("takes a template's content, and its channels and sites", () => {
    const draft = draftFromTemplate(aTemplate({ audience: { type: "channels", channels: ["obras"], sites: ["2"] } }), CONTEXT);
    expect(draft.values).toMatchObject({ title: "Ofertas", body: "Até 50%", url: "/ofertas", icon: "", image: "https://exemplo.com.br/b.png", urgency: "low", ttl: 600, when: "now" });
    expect(draft).toMatchObject({ target: "subscribers", channels: ["obras"], sites: ["2"], collapseKey: "ofertas", people: null });
  });

  it("takes a template's saved segment as the segment audience", () => {
    const draft = draftFromTemplate(aTemplate({ audience: { type: "segment", segment: "3" } }), CONTEXT);
    expect(draft).toMatchObject({ target: "segment", segmentChoice: { source: "saved", segmentId: "3" } });
  });

  it("copies a send to go now, and edits one at its time in the server's zone", () => {
    expect(draftFromNotification(aSend(), "duplicate", CONTEXT).values).toMatchObject({ title: "Aviso", icon: "https://exemplo.com.br/i.png", urgency: "high", when: "now" });
    expect(draftFromNotification(aSend(), "edit", CONTEXT).values).toMatchObject({ when: "later", date: "2026-11-21", time: "18:30" });
  });

  it("keeps a scheduled send's re-engagement and exempt marks when editing it, not when copying it", () => {
    const marked = aSend({ exempt: true, reengagement: true });
    expect(draftFromNotification(marked, "edit", CONTEXT).deliveryRules).toEqual({ reengagement: true, exempt: true });
    expect(draftFromNotification(aSend({ reengagement: true }), "edit", CONTEXT).deliveryRules).toEqual({ reengagement: true, exempt: false });
    // A copy is a new send: the override is decided (and audited) again.
    expect(draftFromNotification(marked, "duplicate", CONTEXT).deliveryRules).toEqual({ reengagement: false, exempt: false });
    expect(draftFromTemplate(aTemplate(), CONTEXT).deliveryRules).toEqual({ reengagement: false, exempt: false });
  });

  it("keeps a people send's count (its ids are never shown) and a written segment's expression", () => {
    expect(draftFromNotification(aSend({ audience: { type: "users", users: 12, sites: ["1"] }, category: "transactional" }), "edit", CONTEXT)).toMatchObject({
      target: "people",
      people: 12,
      sites: ["1"],
      category: "transactional",
    });
    expect(draftFromNotification(aSend({ audience: { type: "segment", segment: null, name: null, expression: "plano = premium" } }), "duplicate", CONTEXT)).toMatchObject({
      target: "segment",
      segmentChoice: { source: "written", draft: { expression: "plano = premium" } },
    });
    // A test send to one browser is copied as a send to everyone.
    expect(draftFromNotification(aSend({ audience: { type: "endpoint" } }), "duplicate", CONTEXT)).toMatchObject({ target: "subscribers", channels: [], sites: [] });
  });

  it("fills the full notification's fields from a template or a send, and saves them back as they were", () => {
    const full = {
      actions: [
        { label: "Ver pedido", url: "/pedidos/1" },
        { label: "Rastrear", url: "https://rastreio.example/1" },
      ],
      renotify: true,
      requireInteraction: true,
      silent: false,
      badge: "/selo.png",
      appBadge: 0,
      data: { tela: "pedido", id: 1 },
    };
    const draft = draftFromTemplate(aTemplate(full), CONTEXT);
    expect(draft.values).toMatchObject({ ...full, appBadge: "0", data: '{\n  "tela": "pedido",\n  "id": 1\n}' });
    expect(templateRequestOf("Pedido", draft)).toMatchObject(full);
    // A send's, the same way (edit keeps them; renotify needs the send's collapse key to go out again).
    const edited = draftFromNotification(aSend({ ...full, collapseKey: null }), "edit", CONTEXT);
    expect(edited.values).toMatchObject({ actions: full.actions, badge: "/selo.png", appBadge: "0" });
    expect(templateRequestOf("Sem chave", edited)).toMatchObject({ collapseKey: null, renotify: false });
  });

  it("saves the form as a template, with the audience a template can hold", () => {
    const draft = draftFromTemplate(aTemplate({ audience: { type: "channels", channels: ["obras"] } }), CONTEXT);
    expect(templateRequestOf("  Nova  ", draft)).toEqual({
      name: "Nova",
      title: "Ofertas",
      body: "Até 50%",
      url: "/ofertas",
      icon: null,
      image: "https://exemplo.com.br/b.png",
      urgency: "low",
      ttl: 600,
      collapseKey: "ofertas",
      // The full notification's fields, cleared (null/false) when the form has none: an update empties them.
      actions: null,
      renotify: false,
      requireInteraction: false,
      silent: false,
      badge: null,
      appBadge: null,
      data: null,
      audience: { type: "channels", channels: ["obras"] },
    });
    expect(templateRequestOf("Todos", { ...draft, channels: [] }).audience).toEqual({ type: "all" });
    expect(templateRequestOf("Pessoas", { ...draft, target: "people" }).audience).toBeNull();
    expect(templateRequestOf("Escrito", { ...draft, target: "segment", segmentChoice: { source: "written", segmentId: "", draft: { expression: "vip", tagKinds: "trusted" } } }).audience).toBeNull();
  });
});
