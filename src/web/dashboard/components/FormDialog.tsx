import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import type { DialogProps } from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";

export interface DialogFormProps {
  /** The title's id, which the dialog is labelled by. */
  titleId: string;
  title: ReactNode;
  busy: boolean;
  submitLabel: string;
  /** "Cancelar" unless said. */
  cancelLabel?: string;
  /** Called on submit (the browser's own submit and validation are off: the form checks itself). */
  onSubmit: () => void | Promise<void>;
  onCancel: () => void;
  children: ReactNode;
}

/**
 * A dialog's form: its title, its content, then Cancel (off while the form is busy) and the submit
 * button (spinning while busy). Enter in a field submits, as in any form.
 */
export function DialogForm({ titleId, title, busy, submitLabel, cancelLabel, onSubmit, onCancel, children }: DialogFormProps) {
  const { t } = useTranslation();
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onCancel} disabled={busy}>
          {cancelLabel ?? t("dashboard.common.cancel")}
        </Button>
        <Button type="submit" variant="contained" loading={busy}>
          {submitLabel}
        </Button>
      </DialogActions>
    </form>
  );
}

export interface FormDialogProps extends Omit<DialogFormProps, "onCancel"> {
  open: boolean;
  /** Not called while the form is busy: a request under way is not abandoned by Escape or a stray click. */
  onClose: () => void;
  maxWidth?: DialogProps["maxWidth"];
}

/** A dialog that is one form (DialogForm), full width up to `maxWidth`. */
export function FormDialog({ open, onClose, maxWidth = "sm", ...form }: FormDialogProps) {
  const close = () => {
    if (!form.busy) onClose();
  };
  return (
    <Dialog open={open} onClose={close} aria-labelledby={form.titleId} maxWidth={maxWidth} fullWidth>
      <DialogForm {...form} onCancel={close} />
    </Dialog>
  );
}
