import { createTheme } from "@mui/material/styles";

export const theme = createTheme({
  palette: {
    mode: "light",
    primary: { main: "#1d4e89" },
    // MUI's default info blue (#0288d1) gives white text 3.85:1 (the "Agendado" chip, the bell's
    // "blocked" notice); this darker one gives 7.6:1 (WCAG 1.4.3 asks 4.5:1).
    info: { main: "#01579b" },
    warning: { main: "#e8a317", light: "#f2c14e" },
    background: { default: "#f6f7fb" },
  },
  shape: { borderRadius: 10 },
  components: {
    // MUI's tooltip is translucent grey: over a light page its text reaches only about 4:1.
    // Opaque grey 800 gives #f5f5f5 text over 9:1 wherever the tooltip sits.
    MuiTooltip: { styleOverrides: { tooltip: { backgroundColor: "#424242" } } },
  },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    // Portuguese reads badly in capitals ("VOLTAR AO INÍCIO"); keep buttons in sentence case.
    button: { textTransform: "none", fontWeight: 600 },
  },
});

/**
 * The theme in the organisation's accent colour (Painel → Organização), or `theme` itself when it
 * sets none. The API refuses an accent with less than 4.5:1 against white, so buttons and links
 * in it stay readable.
 */
export function themeWithAccent(accentColor: string | null) {
  if (accentColor === null) return theme;
  return createTheme(theme, { palette: { primary: theme.palette.augmentColor({ color: { main: accentColor } }) } });
}
