import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";
import CssBaseline from "@mui/material/CssBaseline";
import useMediaQuery from "@mui/material/useMediaQuery";
import { ThemeProvider } from "@mui/material/styles";
import { createSinoTheme } from "../theme.js";
import { useOrganisation } from "../organisation/organisation-context.js";
import type { ColorMode } from "../theme.js";
import { COLOR_MODE_STORAGE_KEY, readColorModePreference, resolveColorMode, writeColorModePreference } from "./color-mode-preference.js";
import type { ColorModePreference } from "./color-mode-preference.js";

interface ColorModeContextValue {
  preference: ColorModePreference;
  /** The mode drawn now: the preference, or the system's when it is "system". */
  mode: ColorMode;
  setPreference: (preference: ColorModePreference) => void;
}

const ColorModeContext = createContext<ColorModeContextValue | null>(null);

/** Where the choice is kept; absent when the browser refuses access to it. */
function pageStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * Draws everything below in Sino's theme, light or dark: the system's mode until the person picks
 * one (kept in localStorage, for the public pages and the Painel alike, and followed by other open
 * tabs). `enableColorScheme` also gives the browser's own parts (scroll bars, date inputs) the mode.
 */
export function ColorModeProvider({ children }: { children: ReactNode }) {
  // noSsr: read the media query on the first render, so a dark system never flashes the light theme.
  const systemPrefersDark = useMediaQuery("(prefers-color-scheme: dark)", { noSsr: true });
  const [preference, setStoredPreference] = useState<ColorModePreference>(() => readColorModePreference(pageStorage()));

  useEffect(() => {
    const follow = (event: StorageEvent) => {
      if (event.key === null || event.key === COLOR_MODE_STORAGE_KEY) setStoredPreference(readColorModePreference(pageStorage()));
    };
    window.addEventListener("storage", follow);
    return () => window.removeEventListener("storage", follow);
  }, []);

  const setPreference = useCallback((next: ColorModePreference) => {
    writeColorModePreference(pageStorage(), next);
    setStoredPreference(next);
  }, []);

  const mode = resolveColorMode(preference, systemPrefersDark);
  const accent = useOrganisation().organisation?.accentColor ?? null;
  const theme = useMemo(() => createSinoTheme({ mode, accent }), [mode, accent]);
  const value = useMemo(() => ({ preference, mode, setPreference }), [preference, mode, setPreference]);

  return (
    <ColorModeContext.Provider value={value}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        {children}
      </ThemeProvider>
    </ColorModeContext.Provider>
  );
}

export function useColorMode(): ColorModeContextValue {
  const value = useContext(ColorModeContext);
  if (!value) throw new Error("useColorMode needs a ColorModeProvider above it");
  return value;
}
