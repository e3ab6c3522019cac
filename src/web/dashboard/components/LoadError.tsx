import { useEffect } from "react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { useSession } from "../session/session-context.js";

/**
 * A list that could not be loaded: why, and a way to try again. A 401 means the session ended
 * (expired, signed out in another tab, user removed): asking the server again sends the operator
 * to sign-in, and back here afterwards.
 */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  const { reload } = useSession();
  const sessionEnded = isDashboardApiError(error) && error.status === 401;
  useEffect(() => {
    if (sessionEnded) reload();
  }, [sessionEnded, reload]);
  return <RetryAlert onRetry={onRetry}>{t("dashboard.common.loadFailed", { reason: errorText(t, error) })}</RetryAlert>;
}

/** What failed to load, and a way to try again; also for the Painel's start, before any session exists. */
export function RetryAlert({ onRetry, children }: { onRetry: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      role="alert"
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t("dashboard.common.retry")}
        </Button>
      }
    >
      {children}
    </Alert>
  );
}
