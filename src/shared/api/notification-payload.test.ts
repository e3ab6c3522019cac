import { describe, expect, it } from "vitest";
import {
  LONGEST_DEFAULT_TAG,
  LONGEST_ID,
  PUSH_RECORD_SIZE,
  RECORD_OVERHEAD,
  classicPayload,
  declarativePayload,
  encryptedRecordSize,
  payloadBudget,
  type PayloadFields,
} from "./notification-payload.js";

const ORIGIN = "https://sino.example.org";

/**
 * A restatement of the W3C Push API "declarative push message" members
 * (https://w3c.github.io/push-api/#declarative-push-message, with app_badge from w3c/push-api
 * #402): the parser's failures, plus a member list, so that a payload Sino builds uses only members
 * the parser reads and gives each the type it wants. Returns the problems found ([] = valid).
 */
function declarativeProblems(json: string): string[] {
  const problems: string[] = [];
  const message: unknown = JSON.parse(json);
  if (!isMap(message)) return ["not a map"];
  const top = new Set(["web_push", "notification", "app_badge", "mutable"]);
  for (const key of Object.keys(message)) if (!top.has(key)) problems.push(`unknown member ${key}`);
  if (message.web_push !== 8030) problems.push("web_push is not 8030");
  if ("app_badge" in message && !isUnsignedInteger(message.app_badge)) problems.push("app_badge is not an unsigned integer");
  if ("mutable" in message && typeof message.mutable !== "boolean") problems.push("mutable is not a boolean");
  const notification = message.notification;
  if (!isMap(notification)) return [...problems, "notification is not a map"];
  const members: Record<string, (value: unknown) => boolean> = {
    title: (value) => typeof value === "string",
    navigate: isAbsoluteUrl,
    dir: (value) => value === "auto" || value === "ltr" || value === "rtl",
    lang: (value) => typeof value === "string",
    body: (value) => typeof value === "string",
    tag: (value) => typeof value === "string",
    image: isAbsoluteUrl,
    icon: isAbsoluteUrl,
    badge: isAbsoluteUrl,
    vibrate: (value) => Array.isArray(value) && value.every(isUnsignedInteger),
    timestamp: isUnsignedInteger,
    renotify: (value) => typeof value === "boolean",
    silent: (value) => typeof value === "boolean",
    requireInteraction: (value) => typeof value === "boolean",
    data: () => true,
    actions: (value) =>
      Array.isArray(value) &&
      value.every(
        (action) =>
          isMap(action) &&
          typeof action.action === "string" &&
          typeof action.title === "string" &&
          isAbsoluteUrl(action.navigate) &&
          Object.keys(action).every((key) => ["action", "title", "navigate", "icon"].includes(key)),
      ),
  };
  for (const required of ["title", "navigate"]) if (!(required in notification)) problems.push(`notification.${required} missing`);
  for (const [key, value] of Object.entries(notification)) {
    const check = members[key];
    if (check === undefined) problems.push(`unknown member notification.${key}`);
    else if (!check(value)) problems.push(`notification.${key} has the wrong type`);
  }
  return problems;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function isUnsignedInteger(value: unknown): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}
function isAbsoluteUrl(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    return new URL(value).href === value;
  } catch {
    return false;
  }
}

const FULL: PayloadFields = {
  title: "Obras na Rua A",
  body: "Interdição das 8h às 18h",
  url: "/avisos/12",
  icon: "/icone.png",
  image: "https://cdn.example.org/foto.jpg",
  badge: "/selo.png",
  tag: "obras",
  renotify: true,
  requireInteraction: true,
  silent: true,
  actions: [
    { label: "Ver mapa", url: "https://mapas.example.org/rua-a" },
    { label: "Avisos", url: "/avisos" },
  ],
  appBadge: 3,
  data: { screen: "obras", id: 12 },
  id: "42",
};

describe("classicPayload", () => {
  it("keeps today's payload for a notification with none of the new fields", () => {
    expect(classicPayload({ title: "Oi", body: "Corpo", url: "/x", tag: "sino-1", id: "1", icon: null, image: null, badge: null })).toBe(
      '{"title":"Oi","body":"Corpo","tag":"sino-1","url":"/x","id":"1"}',
    );
  });

  it("adds the new members beside the existing ones, actions with ids 1 and 2", () => {
    expect(JSON.parse(classicPayload(FULL))).toEqual({
      title: "Obras na Rua A",
      body: "Interdição das 8h às 18h",
      icon: "/icone.png",
      image: "https://cdn.example.org/foto.jpg",
      badge: "/selo.png",
      tag: "obras",
      url: "/avisos/12",
      id: "42",
      renotify: true,
      requireInteraction: true,
      silent: true,
      actions: [
        { action: "1", title: "Ver mapa", url: "https://mapas.example.org/rua-a" },
        { action: "2", title: "Avisos", url: "/avisos" },
      ],
      appBadge: 3,
      data: { screen: "obras", id: 12 },
    });
  });

  it("leaves out false booleans, no actions and null data, but keeps an app badge of 0", () => {
    const payload = JSON.parse(classicPayload({ title: "t", tag: "x", renotify: false, silent: false, requireInteraction: false, actions: [], data: null, appBadge: 0 }));
    expect(payload).toEqual({ title: "t", tag: "x", appBadge: 0 });
  });
});

describe("declarativePayload", () => {
  it("is a declarative push message the Push API parser accepts, with only its members", () => {
    const json = declarativePayload(FULL, ORIGIN);
    expect(declarativeProblems(json)).toEqual([]);
    expect(JSON.parse(json)).toEqual({
      web_push: 8030,
      notification: {
        title: "Obras na Rua A",
        body: "Interdição das 8h às 18h",
        navigate: `${ORIGIN}/avisos/12`,
        lang: "pt-BR",
        dir: "ltr",
        tag: "obras",
        silent: true,
        icon: `${ORIGIN}/icone.png`,
        image: "https://cdn.example.org/foto.jpg",
        badge: `${ORIGIN}/selo.png`,
        requireInteraction: true,
        renotify: true,
        actions: [
          { action: "1", title: "Ver mapa", navigate: "https://mapas.example.org/rua-a" },
          { action: "2", title: "Avisos", navigate: `${ORIGIN}/avisos` },
        ],
        data: { sinoId: "42", url: `${ORIGIN}/avisos/12`, data: { screen: "obras", id: 12 } },
      },
      app_badge: 3,
      mutable: true,
    });
  });

  it("navigates to the public URL when the notification has no link", () => {
    const message = JSON.parse(declarativePayload({ title: "Só título", tag: "sino-7", id: "7" }, `${ORIGIN}/sino/`)) as { notification: { navigate: string; data: unknown } };
    expect(message.notification.navigate).toBe(`${ORIGIN}/sino/`);
    expect(message.notification.data).toEqual({ sinoId: "7", url: `${ORIGIN}/sino/` });
    expect(declarativeProblems(JSON.stringify(message))).toEqual([]);
  });

  it("resolves a path against the public URL's origin, as the classic worker resolves it against its own", () => {
    const message = JSON.parse(declarativePayload({ title: "t", url: "/avisos", tag: "x" }, `${ORIGIN}/sino/`)) as { notification: { navigate: string } };
    expect(message.notification.navigate).toBe(`${ORIGIN}/avisos`);
  });

  it("is still valid with only a title, and gives no sinoId without an id", () => {
    const json = declarativePayload({ title: "t", tag: "x" }, ORIGIN);
    expect(declarativeProblems(json)).toEqual([]);
    expect(JSON.parse(json)).toEqual({ web_push: 8030, notification: { title: "t", navigate: `${ORIGIN}/`, lang: "pt-BR", dir: "ltr", tag: "x", data: { url: `${ORIGIN}/` } }, mutable: true });
  });

  it("fails the restated parser when a required member is missing (the check can fail)", () => {
    expect(declarativeProblems('{"web_push":8030,"notification":{"title":"t"}}')).toEqual(["notification.navigate missing"]);
    expect(declarativeProblems('{"web_push":1,"notification":{"title":"t","navigate":"https://a.example/","app_badge":1}}')).toEqual([
      "web_push is not 8030",
      "unknown member notification.app_badge",
    ]);
  });
});

describe("encryptedRecordSize and payloadBudget", () => {
  it("adds the aes128gcm overhead to the UTF-8 length", () => {
    expect(RECORD_OVERHEAD).toBe(103);
    expect(encryptedRecordSize("{}")).toBe(105);
    expect(encryptedRecordSize('"ação"')).toBe(6 + 2 + 103);
  });

  it("sizes the larger form with the longest id and default tag", () => {
    const fields = { title: "Oi", url: "/avisos" };
    const budget = payloadBudget(fields, ORIGIN);
    const sized = { ...fields, tag: LONGEST_DEFAULT_TAG, id: LONGEST_ID };
    const expected = Math.max(encryptedRecordSize(classicPayload(sized)), encryptedRecordSize(declarativePayload(sized, ORIGIN)));
    expect(budget).toEqual({ bytes: expected, max: PUSH_RECORD_SIZE, remaining: PUSH_RECORD_SIZE - expected });
    // The declarative form repeats the absolute link: it is the larger one here.
    expect(expected).toBe(encryptedRecordSize(declarativePayload(sized, ORIGIN)));
  });

  it("uses a collapse key as the tag, and goes negative when over", () => {
    const withKey = payloadBudget({ title: "Oi", tag: "k" }, ORIGIN);
    const withoutKey = payloadBudget({ title: "Oi" }, ORIGIN);
    expect(withoutKey.bytes - withKey.bytes).toBe(LONGEST_DEFAULT_TAG.length - 1);
    expect(payloadBudget({ title: "Oi", body: "é".repeat(2_000) }, ORIGIN).remaining).toBeLessThan(0);
  });
});
