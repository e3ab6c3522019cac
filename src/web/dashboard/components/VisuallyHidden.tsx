import type { ReactNode } from "react";
import Box from "@mui/material/Box";

/** Text for screen readers only (a column header that would only repeat the buttons below it). */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return (
    <Box component="span" sx={{ position: "absolute", width: "1px", height: "1px", p: 0, m: "-1px", overflow: "hidden", clip: "rect(0 0 0 0)", whiteSpace: "nowrap", border: 0 }}>
      {children}
    </Box>
  );
}
