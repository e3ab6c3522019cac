import { describe, expect, it } from "vitest";
import { COLOR_MODE_STORAGE_KEY, readColorModePreference, resolveColorMode, writeColorModePreference } from "./color-mode-preference.js";

function memoryStorage(): Pick<Storage, "getItem" | "setItem" | "removeItem"> & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe("colour mode preference", () => {
  it("follows the system until a mode is chosen", () => {
    const storage = memoryStorage();
    expect(readColorModePreference(storage)).toBe("system");
    expect(resolveColorMode("system", true)).toBe("dark");
    expect(resolveColorMode("system", false)).toBe("light");
  });

  it("keeps a chosen mode over the system's", () => {
    const storage = memoryStorage();
    writeColorModePreference(storage, "dark");
    expect(storage.items.get(COLOR_MODE_STORAGE_KEY)).toBe("dark");
    expect(readColorModePreference(storage)).toBe("dark");
    expect(resolveColorMode("dark", false)).toBe("dark");
    expect(resolveColorMode("light", true)).toBe("light");
  });

  it("forgets the choice when the system is chosen again", () => {
    const storage = memoryStorage();
    writeColorModePreference(storage, "light");
    writeColorModePreference(storage, "system");
    expect(storage.items.has(COLOR_MODE_STORAGE_KEY)).toBe(false);
  });

  it("reads an unknown stored value, or storage that throws, as the system's", () => {
    const storage = memoryStorage();
    storage.items.set(COLOR_MODE_STORAGE_KEY, "purple");
    expect(readColorModePreference(storage)).toBe("system");
    const blocked = { getItem: () => { throw new Error("SecurityError"); } };
    expect(readColorModePreference(blocked)).toBe("system");
    expect(readColorModePreference(undefined)).toBe("system");
  });
});
