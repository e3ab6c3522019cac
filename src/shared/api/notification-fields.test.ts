import { describe, expect, it } from "vitest";
import { createNotificationRequestSchema } from "./notifications.js";

/** The first issue's message: the stable code the API answers with. */
function codeOf(body: Record<string, unknown>): string | undefined {
  const parsed = createNotificationRequestSchema.safeParse({ title: "Oi", ...body });
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

describe("the full notification's fields in POST /notifications", () => {
  it("accepts every field at its limit", () => {
    const parsed = createNotificationRequestSchema.parse({
      title: "Oi",
      actions: [
        { label: "a".repeat(30), url: "https://example.org/x" },
        { label: " Avisos ", url: "/avisos" },
      ],
      renotify: true,
      requireInteraction: true,
      silent: true,
      badge: "/selo.png",
      appBadge: 99_999,
      data: { texto: "é".repeat(500), n: 1 },
    });
    expect(parsed.actions?.[1]).toEqual({ label: "Avisos", url: "/avisos" });
    expect(parsed.appBadge).toBe(99_999);
  });

  it.each([
    [{ actions: [{ url: "/a" }] }, "action_label_required"],
    [{ actions: [{ label: "  ", url: "/a" }] }, "action_label_required"],
    [{ actions: [{ label: "a".repeat(31), url: "/a" }] }, "action_label_too_long"],
    [{ actions: [{ label: "a\nb", url: "/a" }] }, "text_control_characters"],
    [{ actions: [{ label: "a", url: "javascript:alert(1)" }] }, "action_link_invalid"],
    [{ actions: [{ label: "a", url: "//evil.example" }] }, "action_link_invalid"],
    [{ actions: [{ label: "a" }] }, "action_link_invalid"],
    [{ actions: [{ label: "a", url: "/1" }, { label: "b", url: "/2" }, { label: "c", url: "/3" }] }, "too_many_actions"],
    [{ actions: "ver" }, "too_many_actions"],
    [{ badge: "data:image/png;base64,AAAA" }, "badge_invalid"],
    [{ appBadge: -1 }, "app_badge_invalid"],
    [{ appBadge: 100_000 }, "app_badge_invalid"],
    [{ appBadge: 1.5 }, "app_badge_invalid"],
    [{ appBadge: "3" }, "app_badge_invalid"],
    [{ data: { a: Number.NaN } }, "data_invalid"],
    [{ data: { a: "x".repeat(1_100) } }, "data_too_large"],
    [{ renotify: "yes" }, "validation_failed"],
  ])("refuses %j with %s", (body, code) => {
    expect(codeOf(body)).toBe(code);
  });

  it("counts data in UTF-8 bytes of its JSON: 1,024 fit, 1,025 do not", () => {
    // {"a":"…"} is 8 bytes around the text; "é" is 2 bytes.
    expect(codeOf({ data: { a: "é".repeat(508) } })).toBeUndefined();
    expect(codeOf({ data: { a: `${"é".repeat(508)}x` } })).toBe("data_too_large");
  });
});
