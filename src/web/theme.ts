import { createTheme } from "@mui/material/styles";
import type { PaletteOptions, Theme } from "@mui/material/styles";
import { ptBR as materialPtBR } from "@mui/material/locale";
import { ptBR as chartsPtBR } from "@mui/x-charts/locales";

/** The colours a page is drawn in: chosen by the operator or visitor, or the system's (see color-mode/). */
export type ColorMode = "light" | "dark";

export interface SinoThemeOptions {
  mode: ColorMode;
}

const LIGHT: PaletteOptions = {
  mode: "light",
  primary: { main: "#1d4e89" },
  // MUI's default info blue (#0288d1) gives white text 3.85:1 (the "Agendado" chip, the bell's
  // "blocked" notice); this darker one gives 7.6:1 (WCAG 1.4.3 asks 4.5:1).
  info: { main: "#01579b" },
  warning: { main: "#e8a317", light: "#f2c14e" },
  background: { default: "#f6f7fb" },
};

// Dark: lighter tones of the same hues, so links and outlined buttons keep 4.5:1 over the dark
// paper (#1d4e89 over #121212 is 2.2:1), and a threshold of 4.5 makes MUI pick dark text on the
// lighter filled buttons and chips (white over MUI's dark error red is only 3.7:1).
const DARK: PaletteOptions = {
  mode: "dark",
  primary: { main: "#9ec5f8" },
  info: { main: "#81d4fa" },
  warning: { main: "#e8a317", light: "#f2c14e" },
  contrastThreshold: 4.5,
  background: { default: "#121212", paper: "#1b1c1f" },
};

/**
 * Sino's MUI theme for one colour mode, with MUI's and MUI X's pt-BR texts ("Fechar", "Ir para a
 * próxima página") so no component falls back to its English labels. Built per mode by the app's
 * root (no module-level theme), so the mode can follow the system and change at run time.
 */
export function createSinoTheme({ mode }: SinoThemeOptions): Theme {
  return createTheme(
    {
      palette: mode === "dark" ? DARK : LIGHT,
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
