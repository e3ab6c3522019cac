import type { ReactNode } from "react";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Check from "@mui/icons-material/Check";
import ContentCopy from "@mui/icons-material/ContentCopy";
import { useClipboardCopy } from "../hooks/useClipboardCopy.js";

/** What the "shown once" step says, already translated (each dialog has its own words). */
export interface SecretOnceTexts {
  title: string;
  onceTitle: string;
  onceText: string;
  /** The secret field's label. */
  label: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
}

export interface SecretOnceDialogProps {
  open: boolean;
  /** The title's id, for both steps (the dialog is labelled by it). */
  titleId: string;
  /** Null while the first step (`children`) shows; then the secret, shown this once. */
  secret: string | null;
  texts: SecretOnceTexts;
  /** The secret field's data-testid. */
  testId: string;
  /** The dialog's aria-describedby, if any; `noticeId` gives the warning that id in the second step. */
  describedBy?: string;
  noticeId?: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A dialog whose first step (a form, a confirmation) ends with a secret the server keeps only a
 * hash of: a token, a webhook's signing key, a temporary password. It is shown ONCE, read-only with
 * a copy button, under a warning that closing loses it; a click on the backdrop does not close it.
 */
export function SecretOnceDialog({ open, titleId, secret, texts, testId, describedBy, noticeId, onClose, children }: SecretOnceDialogProps) {
  return (
    <Dialog
      open={open}
      // The secret cannot be shown again: a stray click on the backdrop must not lose it.
      onClose={(_event, reason) => (secret !== null && reason === "backdropClick" ? undefined : onClose())}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      maxWidth="sm"
      fullWidth
    >
      {secret === null ? children : <SecretShown titleId={titleId} secret={secret} texts={texts} testId={testId} noticeId={noticeId} onDone={onClose} />}
    </Dialog>
  );
}

function SecretShown({ titleId, secret, texts, testId, noticeId, onDone }: { titleId: string; secret: string; texts: SecretOnceTexts; testId: string; noticeId: string | undefined; onDone: () => void }) {
  const { status, copy } = useClipboardCopy(secret);
  return (
    <>
      <DialogTitle id={titleId}>{texts.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2.5} sx={{ pt: 1 }}>
          <Alert severity="warning" id={noticeId}>
            <AlertTitle>{texts.onceTitle}</AlertTitle>
            {texts.onceText}
          </Alert>
          <TextField
            label={texts.label}
            value={secret}
            fullWidth
            onFocus={(event) => event.target.select()}
            helperText={status === "copied" ? texts.copied : status === "failed" ? texts.copyFailed : undefined}
            slotProps={{
              htmlInput: { readOnly: true, "data-testid": testId, spellCheck: false, sx: { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" } },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={status === "copied" ? texts.copied : texts.copy}>
                      <IconButton aria-label={texts.copy} onClick={() => void copy()} edge="end">
                        {status === "copied" ? <Check color="success" /> : <ContentCopy />}
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ),
              },
            }}
          />
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onDone}>
          {texts.done}
        </Button>
      </DialogActions>
    </>
  );
}
