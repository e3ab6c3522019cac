import type { ColorMode } from "../theme.js";

/** What a person chose in the appearance menu: a fixed mode, or whatever the system says. */
export type ColorModePreference = "system" | ColorMode;

export const COLOR_MODE_PREFERENCES: readonly ColorModePreference[] = ["system", "light", "dark"];

/** The localStorage key: one per origin, so the public pages and the Painel share the choice. */
export const COLOR_MODE_STORAGE_KEY = "sino.colorMode";

/** The stored choice; "system" when none was made, storage is unavailable or holds something else. */
export function readColorModePreference(storage: Pick<Storage, "getItem"> | undefined): ColorModePreference {
  try {
    const stored = storage?.getItem(COLOR_MODE_STORAGE_KEY);
    return COLOR_MODE_PREFERENCES.find((preference) => preference === stored) ?? "system";
  } catch {
    // Safari in some private modes, or storage blocked by the browser's settings.
    return "system";
  }
}

/** Keeps the choice; "system" removes it, so a later change of the system's mode is followed again. */
export function writeColorModePreference(storage: Pick<Storage, "setItem" | "removeItem"> | undefined, preference: ColorModePreference): void {
  try {
    if (preference === "system") storage?.removeItem(COLOR_MODE_STORAGE_KEY);
    else storage?.setItem(COLOR_MODE_STORAGE_KEY, preference);
  } catch {
    // Not kept past this page: the choice still applies until it is left.
  }
}

/** The mode to draw in for a preference, given whether the system asks for dark. */
export function resolveColorMode(preference: ColorModePreference, systemPrefersDark: boolean): ColorMode {
  if (preference === "system") return systemPrefersDark ? "dark" : "light";
  return preference;
}
