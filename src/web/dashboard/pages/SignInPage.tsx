import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation, useNavigate } from "react-router";
import TextField from "@mui/material/TextField";
import { errorText } from "../api/error-text.js";
import { AuthLayout } from "../components/AuthLayout.js";
import { FormStack } from "../components/FormStack.js";
import { FullPageProgress } from "../components/FullPageProgress.js";
import { PasswordField } from "../components/PasswordField.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { checkSignInEmail } from "../session/account-rules.js";
import type { ReturnState } from "../session/RequireSession.js";
import { useSession } from "../session/session-context.js";

/** Only paths inside the dashboard: the return address must not send anyone off-site. */
function returnPath(state: unknown): string {
  const from = (state as ReturnState | null)?.from;
  return typeof from === "string" && from.startsWith(`${DASHBOARD_PATHS.root}/`) && from !== DASHBOARD_PATHS.signIn ? from : DASHBOARD_PATHS.root;
}

export function SignInPage() {
  const { t } = useTranslation();
  const { api } = useDashboardServices();
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const { resource: setup } = useResource(useCallback(() => api.getSetup(), [api]));
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (session.state.status === "signed-in" && !busy) return <Navigate to={returnPath(location.state)} replace />;
  if (setup.status === "loading") return <FullPageProgress />;
  if (setup.status === "ready" && setup.data.needed) return <Navigate to={DASHBOARD_PATHS.setup} replace />;

  const submit = async () => {
    const emailProblem = checkSignInEmail(email);
    const errors = {
      ...(emailProblem ? { email: t(emailProblem) } : {}),
      ...(password === "" ? { password: t("dashboard.account.errors.passwordRequired") } : {}),
    };
    setFieldErrors(errors);
    setFormError(null);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    try {
      await session.signIn({ email: email.trim(), password });
      await navigate(returnPath(location.state), { replace: true });
    } catch (error) {
      // invalid_credentials and too_many_attempts concern the pair, not one field: say it above.
      setFormError(errorText(t, error));
      setPassword("");
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout title={t("dashboard.signIn.title")} lead={t("dashboard.signIn.lead")}>
      <FormStack onSubmit={submit} error={formError} errorTestId="sign-in-error" busy={busy} submitLabel={t("dashboard.signIn.submit")}>
        <TextField
          label={t("dashboard.account.email")}
          type="email"
          name="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={fieldErrors.email !== undefined}
          helperText={fieldErrors.email}
          required
          fullWidth
          autoFocus
        />
        <PasswordField
          label={t("dashboard.account.password")}
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={fieldErrors.password !== undefined}
          helperText={fieldErrors.password}
          required
          fullWidth
        />
      </FormStack>
    </AuthLayout>
  );
}
