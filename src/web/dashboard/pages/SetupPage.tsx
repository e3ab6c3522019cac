import { useCallback, useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { AuthLayout } from "../components/AuthLayout.js";
import { FullPageProgress } from "../components/FullPageProgress.js";
import { LoadError } from "../components/LoadError.js";
import { PasswordField } from "../components/PasswordField.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { PASSWORD_MIN, checkEmail, checkName, checkNewPassword } from "../session/account-rules.js";
import { useSession } from "../session/session-context.js";

type Field = "name" | "email" | "password" | "confirm";

/** One-time creation of the first admin, while no user exists (never a default password). */
export function SetupPage() {
  const { t } = useTranslation();
  const { api } = useDashboardServices();
  const session = useSession();
  const navigate = useNavigate();
  const { resource: setup, reload } = useResource(useCallback(() => api.getSetup(), [api]));
  const [values, setValues] = useState<Record<Field, string>>({ name: "", email: "", password: "", confirm: "" });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  if (setup.status === "loading") return <FullPageProgress />;
  if (setup.status === "error") {
    return (
      <AuthLayout title={t("dashboard.setup.title")}>
        <LoadError error={setup.error} onRetry={reload} />
      </AuthLayout>
    );
  }
  if (!setup.data.needed && !done) return <Navigate to={DASHBOARD_PATHS.signIn} replace />;

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setValues((previous) => ({ ...previous, [field]: event.target.value }));
    setErrors((previous) => ({ ...previous, [field]: undefined }));
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
    if (!password && values.confirm !== values.password) problems.confirm = t("dashboard.setup.errors.confirmMismatch");
    setErrors(problems);
    setFormError(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const user = await api.setup({ name: values.name.trim(), email: values.email.trim(), password: values.password });
      setDone(true);
      session.signedIn(user);
      await navigate(DASHBOARD_PATHS.root, { replace: true });
    } catch (error) {
      const field = isDashboardApiError(error) ? error.field : undefined;
      if (field === "name" || field === "email" || field === "password") setErrors({ [field]: errorText(t, error) });
      else setFormError(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={t("dashboard.setup.title")} lead={t("dashboard.setup.lead")}>
      <Stack component="form" noValidate spacing={2.5} onSubmit={(event) => void submit(event)}>
        {formError && (
          <Alert severity="error" role="alert">
            {formError}
          </Alert>
        )}
        <TextField
          label={t("dashboard.account.name")}
          name="name"
          autoComplete="name"
          value={values.name}
          onChange={change("name")}
          error={errors.name !== undefined}
          helperText={errors.name}
          required
          fullWidth
          autoFocus
        />
        <TextField
          label={t("dashboard.account.email")}
          type="email"
          name="email"
          autoComplete="username"
          value={values.email}
          onChange={change("email")}
          error={errors.email !== undefined}
          helperText={errors.email}
          required
          fullWidth
        />
        <PasswordField
          label={t("dashboard.account.password")}
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={change("password")}
          error={errors.password !== undefined}
          helperText={errors.password ?? t("dashboard.account.passwordHint", { min: PASSWORD_MIN })}
          required
          fullWidth
        />
        <PasswordField
          label={t("dashboard.setup.confirm")}
          name="confirm"
          autoComplete="new-password"
          value={values.confirm}
          onChange={change("confirm")}
          error={errors.confirm !== undefined}
          helperText={errors.confirm}
          required
          fullWidth
        />
        <Button type="submit" variant="contained" size="large" loading={busy} fullWidth>
          {t("dashboard.setup.submit")}
        </Button>
      </Stack>
    </AuthLayout>
  );
}
