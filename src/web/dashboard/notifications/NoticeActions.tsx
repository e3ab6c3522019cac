import { useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import VisibilityOffOutlined from "@mui/icons-material/VisibilityOffOutlined";
import VisibilityOutlined from "@mui/icons-material/VisibilityOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import type { Notification, NoticeVisibility } from "../../../shared/api/notifications.js";
import { errorText } from "../api/error-text.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { useDashboardServices } from "../services.js";

/**
 * Whether the public Avisos page shows this send, and the way to change it: take it off for now
 * (and publish it again later), or remove it for good (asked first). A test to one browser is
 * never a notice, so it has no actions.
 */
export function NoticeActions({ notification, onChange }: { notification: Notification; onChange: (changed: Notification) => void }) {
  const { t } = useTranslation();
  const { notifications: api } = useDashboardServices();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  if (notification.audience.type === "endpoint") return <>{t("notifications.notice.endpoint")}</>;

  const change = async (notice: NoticeVisibility) => {
    setBusy(true);
    setError(null);
    try {
      onChange(await api.setNotice(notification.id, notice));
    } catch (caught) {
      setError(errorText(t, caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={1} sx={{ alignItems: "flex-start" }}>
      <Typography component="span" data-testid="notice-state">
        {t(`notifications.notice.${notification.notice}`)}
      </Typography>
      {notification.notice !== "removed" && (
        <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: "wrap" }}>
          {notification.notice === "public" ? (
            <Button size="small" variant="outlined" startIcon={<VisibilityOffOutlined />} disabled={busy} onClick={() => void change("hidden")}>
              {t("notifications.notice.hide")}
            </Button>
          ) : (
            <Button size="small" variant="outlined" startIcon={<VisibilityOutlined />} disabled={busy} onClick={() => void change("public")}>
              {t("notifications.notice.show")}
            </Button>
          )}
          <Button size="small" color="error" startIcon={<DeleteOutline />} disabled={busy} onClick={() => setConfirming(true)}>
            {t("notifications.notice.remove")}
          </Button>
        </Stack>
      )}
      {error !== null && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      <ConfirmDialog
        open={confirming}
        title={t("notifications.notice.removeTitle")}
        text={t("notifications.notice.removeText", { title: notification.title })}
        confirmLabel={t("notifications.notice.removeConfirm")}
        destructive
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          onChange(await api.setNotice(notification.id, "removed"));
        }}
      />
    </Stack>
  );
}
