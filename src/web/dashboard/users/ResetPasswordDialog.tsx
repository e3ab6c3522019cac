import { useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import { errorText } from "../api/error-text.js";
import type { User } from "../api/types.js";
import { FormError } from "../components/FormFields.js";
import { SecretOnceDialog } from "../components/SecretOnceDialog.js";
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
  const name = user?.name ?? "";

  const close = () => {
    if (busy) return;
    setError(null);
    setPassword(null);
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

  return (
    <SecretOnceDialog
      open={user !== null}
      titleId="reset-password-title"
      describedBy="reset-password-text"
      noticeId="reset-password-text"
      secret={password}
      testId="temporary-password"
      texts={{
        title: t("dashboard.users.resetDoneTitle", { name }),
        onceTitle: t("dashboard.users.resetOnceTitle"),
        onceText: t("dashboard.users.resetOnceText", { name }),
        label: t("dashboard.users.temporaryPassword"),
        copy: t("dashboard.users.copy"),
        copied: t("dashboard.users.copied"),
        copyFailed: t("dashboard.users.copyFailed"),
        done: t("dashboard.users.done"),
      }}
      onClose={close}
    >
      <DialogTitle id="reset-password-title">{t("dashboard.users.resetTitle", { name })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <FormError error={error} />
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
    </SecretOnceDialog>
  );
}
