import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useLocation, useNavigate } from "react-router";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { AuthLayout } from "../components/AuthLayout.js";
import { FormStack } from "../components/FormStack.js";
import { PasswordField } from "../components/PasswordField.js";
import { useFormFields, type FieldErrors } from "../hooks/useFormFields.js";
import { DASHBOARD_PATHS } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { PASSWORD_MIN, checkNewPassword } from "../session/account-rules.js";
import type { ReturnState } from "../session/RequireSession.js";
import { useCurrentUser, useSession } from "../session/session-context.js";

/** Only paths inside the dashboard, and not this page: the return address must not loop or leave. */
function returnPath(state: unknown): string {
  const from = (state as ReturnState | null)?.from;
  return typeof from === "string" && from.startsWith(`${DASHBOARD_PATHS.root}/`) && !from.startsWith(DASHBOARD_PATHS.password) ? from : DASHBOARD_PATHS.root;
}

/**
 * Alterar senha: the signed-in operator's own password, with the current one. Also where a
 * temporary password (an admin's reset, or an initial one to be replaced) leads: RequireSession
 * sends such a session here, and the server refuses it everything else until this is done.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const { api } = useDashboardServices();
  const user = useCurrentUser();
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const form = useFormFields({ currentPassword: "", newPassword: "", confirm: "" });
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const forced = user.mustChangePassword;

  const submit = async () => {
    const { values } = form;
    const problems: FieldErrors<keyof typeof values> = {};
    if (values.currentPassword === "") problems.currentPassword = t("dashboard.password.errors.currentRequired");
    const weak = checkNewPassword(values.newPassword);
    if (weak) problems.newPassword = t(weak, { min: PASSWORD_MIN });
    else if (values.confirm !== values.newPassword) problems.confirm = t("dashboard.password.errors.confirmMismatch");
    form.setErrors(problems);
    setFormError(null);
    setDone(false);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const updated = await api.changeOwnPassword({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      form.reset();
      session.signedIn(updated);
      if (forced) await navigate(returnPath(location.state), { replace: true });
      else setDone(true);
    } catch (error) {
      const field = isDashboardApiError(error) ? error.field : undefined;
      if (field === "currentPassword" || field === "newPassword") form.setErrors({ [field]: errorText(t, error) });
      else setFormError(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  const leave = async () => {
    await session.signOut().catch(() => undefined);
    await navigate(DASHBOARD_PATHS.signIn, { replace: true });
  };

  return (
    <AuthLayout title={forced ? t("dashboard.password.requiredTitle") : t("dashboard.password.title")} lead={forced ? t("dashboard.password.requiredLead") : t("dashboard.password.lead")}>
      <FormStack
        onSubmit={submit}
        error={formError}
        busy={busy}
        submitLabel={t("dashboard.password.submit")}
        aria-label={t("dashboard.password.title")}
        footer={
          forced ? (
            <Button onClick={() => void leave()} fullWidth>
              {t("dashboard.password.signOut")}
            </Button>
          ) : (
            <Button component={RouterLink} to={returnPath(location.state)} fullWidth>
              {t("dashboard.password.back")}
            </Button>
          )
        }
      >
        {done && (
          <Alert severity="success" role="status" data-testid="password-changed">
            {t("dashboard.password.changed")}
          </Alert>
        )}
        {/* The account's e-mail, for password managers: they file the new password under it. */}
        <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
        <PasswordField
          label={forced ? t("dashboard.password.temporary") : t("dashboard.password.current")}
          {...form.bind("currentPassword")}
          autoComplete="current-password"
          required
          fullWidth
          autoFocus
        />
        <PasswordField
          label={t("dashboard.password.new")}
          {...form.bind("newPassword", t("dashboard.account.passwordHint", { min: PASSWORD_MIN }))}
          autoComplete="new-password"
          required
          fullWidth
        />
        <PasswordField label={t("dashboard.password.confirm")} {...form.bind("confirm")} autoComplete="new-password" required fullWidth />
      </FormStack>
    </AuthLayout>
  );
}
