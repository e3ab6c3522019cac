import { createTheme, getContrastRatio, lighten } from "@mui/material/styles";
import type { PaletteOptions, Theme } from "@mui/material/styles";
import { ptBR as materialPtBR } from "@mui/material/locale";
import { ptBR as chartsPtBR } from "@mui/x-charts/locales";

/** The colours a page is drawn in: chosen by the operator or visitor, or the system's (see color-mode/). */
export type ColorMode = "light" | "dark";

export interface SinoThemeOptions {
  mode: ColorMode;
  /** The organisation's accent colour (`#rrggbb`, Painel → Organização); absent or null: Sino's blue. */
  accent?: string | null;
}

/** Sino's own accent in light mode: the organisation page's "Usar a cor padrão". */
export const DEFAULT_ACCENT = "#1d4e89";

const LIGHT: PaletteOptions = {
  mode: "light",
  primary: { main: DEFAULT_ACCENT },
  // MUI's default info blue (#0288d1) gives white text 3.85:1 (the "Agendado" chip, the bell's
  // "blocked" notice); this darker one gives 7.6:1 (WCAG 1.4.3 asks 4.5:1).
  info: { main: "#01579b" },
  warning: { main: "#e8a317", light: "#f2c14e" },
  background: { default: "#f6f7fb" },
};

// Dark: lighter tones of the same hues, so links and outlined buttons keep 4.5:1 over the dark
// paper (#1d4e89 over #121212 is 2.2:1), and a threshold of 4.5 makes MUI pick dark text on the
// lighter filled buttons and chips (white over MUI's dark error red is only 3.7:1).
const DARK_PAPER = "#1b1c1f";

const DARK: PaletteOptions = {
  mode: "dark",
  primary: { main: "#9ec5f8" },
  info: { main: "#81d4fa" },
  warning: { main: "#e8a317", light: "#f2c14e" },
  contrastThreshold: 4.5,
  background: { default: "#121212", paper: DARK_PAPER },
};

/**
 * Sino's MUI theme for one colour mode, with MUI's and MUI X's pt-BR texts ("Fechar", "Ir para a
 * próxima página") so no component falls back to its English labels. Built per mode by the app's
 * root (no module-level theme), so the mode can follow the system and change at run time.
 */
export function createSinoTheme({ mode, accent = null }: SinoThemeOptions): Theme {
  const palette = mode === "dark" ? DARK : LIGHT;
  return createTheme(
    {
      palette: accent === null ? palette : { ...palette, primary: { main: mode === "dark" ? accentOnDark(accent) : accent } },
      shape: { borderRadius: 10 },
      components: {
        // MUI's tooltip is translucent grey: over a light page its text reaches only about 4:1.
        // Opaque grey 800 gives #f5f5f5 text over 9:1 wherever the tooltip sits, in both modes.
        MuiTooltip: { styleOverrides: { tooltip: { backgroundColor: "#424242" } } },
      },
      typography: {
        fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
        // Portuguese reads badly in capitals ("VOLTAR AO INÍCIO"); keep buttons in sentence case.
        button: { textTransform: "none", fontWeight: 600 },
      },
    },
    materialPtBR,
    chartsPtBR,
  );
}

/**
 * The organisation's accent as drawn over the dark paper. The API only takes an accent with 4.5:1
 * against white (so it is dark enough for light mode); over #1b1c1f that same colour is too dark to
 * read, so it is lightened in steps until it reaches 4.5:1 there too, keeping its hue.
 */
export function accentOnDark(accent: string): string {
  for (let step = 0; step <= 10; step += 1) {
    const color = lighten(accent, step / 10);
    if (getContrastRatio(color, DARK_PAPER) >= 4.5) return color;
  }
  return "#ffffff";
}
