import { useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import type { Role, User } from "../api/types.js";
import { PasswordField } from "../components/PasswordField.js";
import { useDashboardServices } from "../services.js";
import { PASSWORD_MIN, checkEmail, checkName, checkNewPassword } from "../session/account-rules.js";

type Field = "name" | "email" | "password";
// An admin-chosen password is one more person knows: by default its owner replaces it at once.
const EMPTY = { name: "", email: "", password: "", role: "publisher" as Role, mustChangePassword: true };

export function CreateUserDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (user: User) => void }) {
  const { t } = useTranslation();
  const { api } = useDashboardServices();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    if (busy) return;
    setValues(EMPTY);
    setErrors({});
    setFormError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems: Partial<Record<Field, string>> = {};
    const name = checkName(values.name);
    const email = checkEmail(values.email);
    const password = checkNewPassword(values.password);
    if (name) problems.name = t(name);
    if (email) problems.email = t(email);
    if (password) problems.password = t(password, { min: PASSWORD_MIN });
    setErrors(problems);
    setFormError(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const user = await api.createUser({
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
        role: values.role,
        mustChangePassword: values.mustChangePassword,
      });
      setBusy(false);
      setValues(EMPTY);
      onCreated(user);
    } catch (error) {
      setBusy(false);
      const field = isDashboardApiError(error) ? (error.code === "email_taken" ? "email" : error.field) : undefined;
      if (field === "name" || field === "email" || field === "password") setErrors({ [field]: errorText(t, error) });
      else setFormError(errorText(t, error));
    }
  };

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((previous) => ({ ...previous, [field]: event.target.value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
  };

  return (
    <Dialog open={open} onClose={close} aria-labelledby="create-user-title" maxWidth="xs" fullWidth>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="create-user-title">{t("dashboard.users.createTitle")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {formError && (
              <Alert severity="error" role="alert">
                {formError}
              </Alert>
            )}
            <TextField label={t("dashboard.account.name")} name="name" value={values.name} onChange={set("name")} error={errors.name !== undefined} helperText={errors.name} required fullWidth autoFocus />
            <TextField
              label={t("dashboard.account.email")}
              name="email"
              type="email"
              autoComplete="off"
              value={values.email}
              onChange={set("email")}
              error={errors.email !== undefined}
              helperText={errors.email}
              required
              fullWidth
            />
            <PasswordField
              label={t("dashboard.users.initialPassword")}
              name="password"
              autoComplete="new-password"
              value={values.password}
              onChange={set("password")}
              error={errors.password !== undefined}
              helperText={errors.password ?? t("dashboard.account.passwordHint", { min: PASSWORD_MIN })}
              required
              fullWidth
            />
            <Box>
              <FormControlLabel
                control={
                  <Switch
                    name="mustChangePassword"
                    checked={values.mustChangePassword}
                    onChange={(event) => setValues((previous) => ({ ...previous, mustChangePassword: event.target.checked }))}
                    slotProps={{ input: { "aria-describedby": "create-user-must-change-hint" } }}
                  />
                }
                label={t("dashboard.users.askNewPassword")}
              />
              <FormHelperText id="create-user-must-change-hint" sx={{ mt: 0 }}>
                {t("dashboard.users.askNewPasswordHint")}
              </FormHelperText>
            </Box>
            <TextField
              select
              label={t("dashboard.users.role")}
              name="role"
              value={values.role}
              onChange={(event) => setValues((previous) => ({ ...previous, role: event.target.value as Role }))}
              helperText={t(`dashboard.roles.${values.role}Hint`)}
              fullWidth
            >
              <MenuItem value="publisher">{t("dashboard.roles.publisher")}</MenuItem>
              <MenuItem value="admin">{t("dashboard.roles.admin")}</MenuItem>
            </TextField>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={busy}>
            {t("dashboard.common.cancel")}
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            {t("dashboard.users.create")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
