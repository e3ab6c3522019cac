import { useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { errorText } from "../api/error-text.js";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  text: string;
  /** A second paragraph (e.g. the compose's delivery rules); nothing when empty. */
  note?: string;
  confirmLabel: string;
  /** Red confirm button for what cannot be undone. */
  destructive?: boolean;
  /** Runs the action; the dialog stays open, with the error, when it throws. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** The button that leaves things as they are; "Cancelar" unless that would read like the action. */
  cancelLabel?: string;
}

/** Asks before an action; "Cancelar" has the focus, so Enter never destroys anything by accident. */
export function ConfirmDialog({ open, title, text, note, confirmLabel, destructive = false, onConfirm, onClose, cancelLabel }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setBusy(false);
      onClose();
    } catch (caught) {
      setBusy(false);
      setError(errorText(t, caught));
    }
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby="confirm-title" aria-describedby="confirm-text" maxWidth="xs" fullWidth>
      <DialogTitle id="confirm-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-text">
          {text}
          {note !== undefined && note !== "" && (
            <>
              {" "}
              <span data-testid="confirm-note">{note}</span>
            </>
          )}
        </DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} role="alert">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={close} autoFocus disabled={busy}>
          {cancelLabel ?? t("dashboard.common.cancel")}
        </Button>
        <Button onClick={() => void confirm()} variant="contained" color={destructive ? "error" : "primary"} disabled={busy} loading={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
