import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { errorText } from "../api/error-text.js";

/** A list that could not be loaded: why, and a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      severity="error"
      role="alert"
      sx={{ m: 2 }}
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t("painel.common.retry")}
        </Button>
      }
    >
      {t("painel.common.loadFailed", { reason: errorText(t, error) })}
    </Alert>
  );
}
