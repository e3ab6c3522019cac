import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate } from "react-router";
import TextField from "@mui/material/TextField";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { AuthLayout } from "../components/AuthLayout.js";
import { FormStack } from "../components/FormStack.js";
import { FullPageProgress } from "../components/FullPageProgress.js";
import { LoadError } from "../components/LoadError.js";
import { PasswordField } from "../components/PasswordField.js";
import { useFormFields } from "../hooks/useFormFields.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { PASSWORD_MIN, newAccountErrors } from "../session/account-rules.js";
import { useSession } from "../session/session-context.js";

/** One-time creation of the first admin, while no user exists (never a default password). */
export function SetupPage() {
  const { t } = useTranslation();
  const { api } = useDashboardServices();
  const session = useSession();
  const navigate = useNavigate();
  const { resource: setup, reload } = useResource(useCallback(() => api.getSetup(), [api]));
  const form = useFormFields({ name: "", email: "", password: "", confirm: "" });
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

  const submit = async () => {
    const { values } = form;
    const problems = newAccountErrors(t, values);
    const mismatch = !problems.password && values.confirm !== values.password;
    form.setErrors(mismatch ? { ...problems, confirm: t("dashboard.setup.errors.confirmMismatch") } : problems);
    setFormError(null);
    if (Object.keys(problems).length > 0 || mismatch) return;
    setBusy(true);
    try {
      const user = await api.setup({ name: values.name.trim(), email: values.email.trim(), password: values.password });
      setDone(true);
      session.signedIn(user);
      await navigate(DASHBOARD_PATHS.root, { replace: true });
    } catch (error) {
      const field = isDashboardApiError(error) ? error.field : undefined;
      if (field === "name" || field === "email" || field === "password") form.setErrors({ [field]: errorText(t, error) });
      else setFormError(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={t("dashboard.setup.title")} lead={t("dashboard.setup.lead")}>
      <FormStack onSubmit={submit} error={formError} busy={busy} submitLabel={t("dashboard.setup.submit")}>
        <TextField label={t("dashboard.account.name")} {...form.bind("name")} autoComplete="name" required fullWidth autoFocus />
        <TextField label={t("dashboard.account.email")} type="email" {...form.bind("email")} autoComplete="username" required fullWidth />
        <PasswordField
          label={t("dashboard.account.password")}
          {...form.bind("password", t("dashboard.account.passwordHint", { min: PASSWORD_MIN }))}
          autoComplete="new-password"
          required
          fullWidth
        />
        <PasswordField label={t("dashboard.setup.confirm")} {...form.bind("confirm")} autoComplete="new-password" required fullWidth />
      </FormStack>
    </AuthLayout>
  );
}
