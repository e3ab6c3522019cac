import { describe, expect, it } from "vitest";
import { DEFAULT_SOFT_PROMPT, PROMPT_STORAGE_KEY, readPromptMemory, recordDismissal, recordVisit, shouldOfferPrompt, softPromptConfig } from "./prompt-policy.js";

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

const DAY = 24 * 60 * 60 * 1000;
const config = { visits: 2, delaySeconds: 0, backoffDays: 7 };
const off = { status: "off", permission: "default" as const };

describe("the soft prompt's policy", () => {
  it("counts one visit per browser session", () => {
    const local = memoryStorage();
    expect(recordVisit(local, memoryStorage()).visits).toBe(1);
    const session = memoryStorage();
    expect(recordVisit(local, session).visits).toBe(2);
    expect(recordVisit(local, session).visits).toBe(2);
    expect(readPromptMemory(local).visits).toBe(2);
  });

  it("waits for the configured visit", () => {
    expect(shouldOfferPrompt(config, { visits: 1, dismissedAt: null }, 0, off)).toBe(false);
    expect(shouldOfferPrompt(config, { visits: 2, dismissedAt: null }, 0, off)).toBe(true);
  });

  it("backs off for the configured days after 'Agora não'", () => {
    const local = memoryStorage();
    recordVisit(local, memoryStorage());
    recordVisit(local, memoryStorage());
    const t0 = Date.UTC(2026, 10, 23);
    recordDismissal(local, t0);
    const memory = readPromptMemory(local);
    expect(memory).toEqual({ visits: 2, dismissedAt: t0 });
    expect(shouldOfferPrompt(config, memory, t0 + 7 * DAY - 1, off)).toBe(false);
    expect(shouldOfferPrompt(config, memory, t0 + 7 * DAY, off)).toBe(true);
  });

  it.each([
    ["the bell is on", { status: "on", permission: "granted" as const }],
    ["the bell is hidden", { status: "hidden", permission: "default" as const }],
    ["the browser already asked and was refused", { status: "denied", permission: "denied" as const }],
    ["permission was given but there is no subscription", { status: "off", permission: "granted" as const }],
  ])("is never offered when %s", (_name, page) => {
    expect(shouldOfferPrompt(config, { visits: 9, dismissedAt: null }, 0, page)).toBe(false);
  });

  it("survives storage that throws or holds garbage", () => {
    const broken = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(recordVisit(broken, broken)).toEqual({ visits: 0, dismissedAt: null });
    const garbage = memoryStorage();
    garbage.items.set(PROMPT_STORAGE_KEY, "{not json");
    expect(readPromptMemory(garbage)).toEqual({ visits: 0, dismissedAt: null });
  });

  it("completes a site's partial configuration, taking the default for missing or out-of-range values", () => {
    expect(softPromptConfig()).toEqual(DEFAULT_SOFT_PROMPT);
    expect(softPromptConfig({ visits: 3, delaySeconds: 10, backoffDays: 14 })).toEqual({ visits: 3, delaySeconds: 10, backoffDays: 14 });
    expect(softPromptConfig({ visits: 0, delaySeconds: -1, backoffDays: Number.NaN })).toEqual(DEFAULT_SOFT_PROMPT);
    expect(softPromptConfig({ delaySeconds: 0, backoffDays: 0 })).toEqual({ visits: 1, delaySeconds: 0, backoffDays: 0 });
  });
});
