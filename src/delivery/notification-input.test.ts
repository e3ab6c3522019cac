import { createECDH, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encryptPayload } from "../push/encrypt.js";
import { PUSH_RECORD_SIZE, RECORD_OVERHEAD, encryptedRecordSize, payloadBudget, LONGEST_ID, LONGEST_DEFAULT_TAG } from "../shared/api/notification-payload.js";
import { NOTIFICATION_LIMITS } from "../shared/api/notifications.js";
import { DeliveryError } from "./delivery-error.js";
import { declarativePayloadFor, payloadFor, prepareNotification, type NotificationInput } from "./notification-input.js";

const PUBLIC_URL = "https://sino.example.org";
const keys = (() => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
})();

/** A link of exactly `length` characters. */
function linkOf(length: number): string {
  const start = "https://cdn.example.org/";
  return start + "a".repeat(length - start.length);
}

/** Each field of a send at its limit, one at a time (all at once cannot fit one push). Multi-byte text where it can be. */
const AT_LIMIT: Array<[string, NotificationInput]> = [
  ["title", { title: "é".repeat(NOTIFICATION_LIMITS.title) }],
  ["body", { title: "t", body: "ç".repeat(NOTIFICATION_LIMITS.body) }],
  ["url", { title: "t", url: linkOf(NOTIFICATION_LIMITS.link) }],
  ["icon", { title: "t", icon: linkOf(NOTIFICATION_LIMITS.link) }],
  ["image", { title: "t", image: linkOf(NOTIFICATION_LIMITS.link) }],
  ["badge", { title: "t", badge: linkOf(NOTIFICATION_LIMITS.link) }],
  ["collapseKey", { title: "t", collapseKey: "ã".repeat(NOTIFICATION_LIMITS.collapseKey), renotify: true }],
  [
    "actions",
    {
      title: "t",
      actions: [
        { label: "ó".repeat(30), url: linkOf(700) },
        { label: "ú".repeat(30), url: "/" + "b".repeat(699) },
      ],
    },
  ],
  ["flags", { title: "t", requireInteraction: true, silent: true }],
  ["appBadge", { title: "t", appBadge: 99_999 }],
  // {"k":"…"} is 8 bytes around the text: 1,024 bytes of JSON with two-byte characters.
  ["data", { title: "t", data: { k: "é".repeat(508) } }],
];

describe("the size of a send before it is stored", () => {
  it.each(AT_LIMIT)("computes exactly the encrypted length of both forms with %s at its limit", (_field, input) => {
    let prepared;
    try {
      prepared = prepareNotification(input, PUBLIC_URL);
    } catch (error) {
      // Too large: refused with the very size the forms have.
      const noCheck = prepareNotification(input);
      const tag = noCheck.tag ?? LONGEST_DEFAULT_TAG;
      const largest = Math.max(
        encryptedRecordSize(payloadFor(noCheck, tag, LONGEST_ID)),
        encryptedRecordSize(declarativePayloadFor(noCheck, tag, LONGEST_ID, PUBLIC_URL)),
      );
      expect(error).toBeInstanceOf(DeliveryError);
      expect((error as DeliveryError).details).toEqual({ bytes: largest, max: PUSH_RECORD_SIZE, over: largest - PUSH_RECORD_SIZE });
      expect(largest).toBeGreaterThan(PUSH_RECORD_SIZE);
      return;
    }
    const tag = prepared.tag ?? LONGEST_DEFAULT_TAG;
    for (const payload of [payloadFor(prepared, tag, LONGEST_ID), declarativePayloadFor(prepared, tag, LONGEST_ID, PUBLIC_URL)]) {
      expect(encryptedRecordSize(payload)).toBe(encryptPayload(payload, keys).length);
    }
    // The Painel's budget sees the same bytes.
    const budget = payloadBudget({ ...prepared, tag: prepared.tag ?? null }, PUBLIC_URL);
    expect(budget.bytes).toBe(Math.max(encryptedRecordSize(payloadFor(prepared, tag, LONGEST_ID)), encryptedRecordSize(declarativePayloadFor(prepared, tag, LONGEST_ID, PUBLIC_URL))));
  });

  it("accepts a send whose larger form fills the record to the byte, and refuses one byte more saying so", () => {
    // The declarative form holds the link twice (navigate, data.url): find a link and title that
    // make it exactly 4,096 bytes encrypted.
    const sizeOf = (input: NotificationInput) => payloadBudget({ ...input, tag: null }, PUBLIC_URL).bytes;
    let exact: NotificationInput | undefined;
    for (let length = 1_500; length <= NOTIFICATION_LIMITS.link && exact === undefined; length++) {
      for (const title of ["t", "tt"]) {
        const input = { title, url: linkOf(length) };
        if (sizeOf(input) === PUSH_RECORD_SIZE) exact = input;
      }
    }
    expect(exact).toBeDefined();
    const filled = prepareNotification(exact!, PUBLIC_URL);
    expect(encryptPayload(declarativePayloadFor(filled, LONGEST_DEFAULT_TAG, LONGEST_ID, PUBLIC_URL), keys).length).toBe(PUSH_RECORD_SIZE);
    const oneMore = { ...exact!, title: `${exact!.title}x` };
    expect(() => prepareNotification(oneMore, PUBLIC_URL)).toThrow(expect.objectContaining({ code: "payload_too_large", details: { bytes: PUSH_RECORD_SIZE + 1, max: PUSH_RECORD_SIZE, over: 1 } }));
    expect(RECORD_OVERHEAD).toBe(103);
  });

  it("refuses a personalised send when one person's copy is too large, counting that copy", () => {
    const people = [
      { id: "ana", data: { nome: "Ana" } },
      { id: "bia", data: { nome: "B".repeat(1_000) } },
    ];
    // Bia's link is 2,030 characters once filled: her declarative copy holds it twice.
    const input: NotificationInput = { title: "Olá", url: "https://x.example/{{nome}}/{{nome}}", audience: { kind: "people", people: 2 }, people };
    expect(() => prepareNotification(input, PUBLIC_URL)).toThrow(expect.objectContaining({ code: "payload_too_large" }));
    expect(() => prepareNotification({ ...input, people: [people[0]!] }, PUBLIC_URL)).not.toThrow();
  });

  it("keeps renotify only with a collapse key, and builds an absolute declarative link from a path", () => {
    expect(prepareNotification({ title: "t", renotify: true }).renotify).toBeUndefined();
    const prepared = prepareNotification({ title: "t", collapseKey: "k", renotify: true, url: "/avisos" }, PUBLIC_URL);
    expect(prepared.renotify).toBe(true);
    const declarative = JSON.parse(declarativePayloadFor(prepared, "k", "7", PUBLIC_URL)) as { notification: { navigate: string; renotify: boolean; tag: string } };
    expect(declarative.notification).toMatchObject({ navigate: `${PUBLIC_URL}/avisos`, renotify: true, tag: "k" });
  });
});
