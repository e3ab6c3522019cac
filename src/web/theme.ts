import { createTheme } from "@mui/material/styles";

export const theme = createTheme({
  palette: {
    mode: "light",
    primary: { main: "#1d4e89" },
    warning: { main: "#e8a317", light: "#f2c14e" },
    background: { default: "#f6f7fb" },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    // Portuguese reads badly in capitals ("VOLTAR AO INÍCIO"); keep buttons in sentence case.
    button: { textTransform: "none", fontWeight: 600 },
  },
});
