import { useState } from "react";
import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import type { Role, User } from "../api/types.js";
import { FormDialog } from "../components/FormDialog.js";
import { FormFields } from "../components/FormFields.js";
import { PasswordField } from "../components/PasswordField.js";
import { useFormFields } from "../hooks/useFormFields.js";
import { useDashboardServices } from "../services.js";
import { PASSWORD_MIN, newAccountErrors } from "../session/account-rules.js";

// An admin-chosen password is one more person knows: by default its owner replaces it at once.
const EMPTY = { role: "publisher" as Role, mustChangePassword: true };

export function CreateUserDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (user: User) => void }) {
  const { t } = useTranslation();
  const { api } = useDashboardServices();
  const form = useFormFields({ name: "", email: "", password: "" });
  const [choices, setChoices] = useState(EMPTY);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    form.reset();
    setChoices(EMPTY);
    setFormError(null);
    onClose();
  };

  const submit = async () => {
    const { values } = form;
    const problems = newAccountErrors(t, values);
    form.setErrors(problems);
    setFormError(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const user = await api.createUser({
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
        role: choices.role,
        mustChangePassword: choices.mustChangePassword,
      });
      setBusy(false);
      form.reset();
      setChoices(EMPTY);
      onCreated(user);
    } catch (error) {
      setBusy(false);
      const field = isDashboardApiError(error) ? (error.code === "email_taken" ? "email" : error.field) : undefined;
      if (field === "name" || field === "email" || field === "password") form.setErrors({ [field]: errorText(t, error) });
      else setFormError(errorText(t, error));
    }
  };

  return (
    <FormDialog open={open} onClose={close} maxWidth="xs" titleId="create-user-title" title={t("dashboard.users.createTitle")} busy={busy} submitLabel={t("dashboard.users.create")} onSubmit={submit}>
      <FormFields error={formError}>
        <TextField label={t("dashboard.account.name")} {...form.bind("name")} required fullWidth autoFocus />
        <TextField label={t("dashboard.account.email")} {...form.bind("email")} type="email" autoComplete="off" required fullWidth />
        <PasswordField
          label={t("dashboard.users.initialPassword")}
          {...form.bind("password", t("dashboard.account.passwordHint", { min: PASSWORD_MIN }))}
          autoComplete="new-password"
          required
          fullWidth
        />
        <Box>
          <FormControlLabel
            control={
              <Switch
                name="mustChangePassword"
                checked={choices.mustChangePassword}
                onChange={(event) => setChoices((previous) => ({ ...previous, mustChangePassword: event.target.checked }))}
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
          value={choices.role}
          onChange={(event) => setChoices((previous) => ({ ...previous, role: event.target.value as Role }))}
          helperText={t(`dashboard.roles.${choices.role}Hint`)}
          fullWidth
        >
          <MenuItem value="publisher">{t("dashboard.roles.publisher")}</MenuItem>
          <MenuItem value="admin">{t("dashboard.roles.admin")}</MenuItem>
        </TextField>
      </FormFields>
    </FormDialog>
  );
}
