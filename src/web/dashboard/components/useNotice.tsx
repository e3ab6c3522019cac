import { useCallback, useState } from "react";
import type { ReactElement } from "react";
import Alert from "@mui/material/Alert";
import Snackbar from "@mui/material/Snackbar";

export interface Notice {
  text: string;
  severity: "success" | "error";
}

/**
 * A short confirmation after an action ("Usuário criado."). The text stays while the snackbar
 * slides out, so it never empties mid-animation.
 */
export function useNotice(): [ReactElement, (notice: Notice) => void] {
  const [notice, setNotice] = useState<Notice>({ text: "", severity: "success" });
  const [open, setOpen] = useState(false);
  const show = useCallback((next: Notice) => {
    setNotice(next);
    setOpen(true);
  }, []);
  const close = () => setOpen(false);
  const element = (
    <Snackbar open={open} autoHideDuration={5000} onClose={close} anchorOrigin={{ vertical: "bottom", horizontal: "center" }}>
      <Alert severity={notice.severity} variant="filled" onClose={close} data-testid="notice" sx={{ width: "100%" }}>
        {notice.text}
      </Alert>
    </Snackbar>
  );
  return [element, show];
}
