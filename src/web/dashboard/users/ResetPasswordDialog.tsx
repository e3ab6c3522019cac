import { useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Check from "@mui/icons-material/Check";
import ContentCopy from "@mui/icons-material/ContentCopy";
import { errorText } from "../api/error-text.js";
import type { User } from "../api/types.js";
import { useDashboardServices } from "../services.js";

/**
 * Redefinir senha (admin, for someone else): asks first, then shows the temporary password the
 * server made, ONCE (only its hash is kept), with a copy button. The user's sessions have ended;
 * at their next sign-in the Painel makes them choose a new password.
 */
export function ResetPasswordDialog({ user, onClose, onReset }: { user: User | null; onClose: () => void; onReset: (user: User) => void }) {
  const { t } = useTranslation();
  const { api } = useDashboardServices();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  const name = user?.name ?? "";

  const close = () => {
    if (busy) return;
    setError(null);
    setPassword(null);
    setCopied("no");
    onClose();
  };

  const confirm = async () => {
    if (user === null) return;
    setBusy(true);
    setError(null);
    try {
      const reset = await api.resetUserPassword(user.id);
      setPassword(reset.temporaryPassword);
      onReset(reset.user);
    } catch (failure) {
      setError(t("dashboard.users.resetFailed", { reason: errorText(t, failure) }));
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (password === null) return;
    try {
      await navigator.clipboard.writeText(password);
      setCopied("yes");
    } catch {
      // No clipboard permission (some browsers, http): the field is selected for a manual copy.
      setCopied("failed");
    }
  };

  return (
    <Dialog
      open={user !== null}
      // The password cannot be shown again: a stray click on the backdrop must not lose it.
      onClose={(_event, reason) => (password !== null && reason === "backdropClick" ? undefined : close())}
      aria-labelledby="reset-password-title"
      aria-describedby="reset-password-text"
      maxWidth="sm"
      fullWidth
    >
      {password === null ? (
        <>
          <DialogTitle id="reset-password-title">{t("dashboard.users.resetTitle", { name })}</DialogTitle>
          <DialogContent>
            <Stack spacing={2}>
              {error && (
                <Alert severity="error" role="alert">
                  {error}
                </Alert>
              )}
              <DialogContentText id="reset-password-text">{t("dashboard.users.resetText", { name, email: user?.email ?? "" })}</DialogContentText>
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={close} disabled={busy}>
              {t("dashboard.common.cancel")}
            </Button>
            <Button variant="contained" color="warning" loading={busy} onClick={() => void confirm()}>
              {t("dashboard.users.resetConfirm")}
            </Button>
          </DialogActions>
        </>
      ) : (
        <>
          <DialogTitle id="reset-password-title">{t("dashboard.users.resetDoneTitle", { name })}</DialogTitle>
          <DialogContent>
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              <Alert severity="warning" id="reset-password-text">
                <AlertTitle>{t("dashboard.users.resetOnceTitle")}</AlertTitle>
                {t("dashboard.users.resetOnceText", { name })}
              </Alert>
              <TextField
                label={t("dashboard.users.temporaryPassword")}
                value={password}
                fullWidth
                onFocus={(event) => event.target.select()}
                helperText={copied === "yes" ? t("dashboard.users.copied") : copied === "failed" ? t("dashboard.users.copyFailed") : undefined}
                slotProps={{
                  htmlInput: { readOnly: true, "data-testid": "temporary-password", spellCheck: false, sx: { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" } },
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <Tooltip title={copied === "yes" ? t("dashboard.users.copied") : t("dashboard.users.copy")}>
                          <IconButton aria-label={t("dashboard.users.copy")} onClick={() => void copy()} edge="end">
                            {copied === "yes" ? <Check color="success" /> : <ContentCopy />}
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
            <Button variant="contained" onClick={close}>
              {t("dashboard.users.done")}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
