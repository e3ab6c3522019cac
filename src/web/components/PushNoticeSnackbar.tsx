import { useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Snackbar from "@mui/material/Snackbar";
import { useSino } from "@sino/react";
import type { SinoNotice } from "@sino/react";
import { unblockHelpKey } from "../../client/index.js";

/** Long enough to read the unblock steps; the visitor can close it sooner. */
const AUTO_HIDE_MS: Record<SinoNotice, number | null> = {
  blocked: null,
  "enable-failed": 8000,
  "disable-failed": 8000,
  "disable-server-failed": 8000,
  "enable-timeout": 8000,
};

/** The short pt-BR explanation after a click that did not simply work. */
export function PushNoticeSnackbar() {
  const { t } = useTranslation();
  const { notice, dismissNotice } = useSino();
  // Keep the last text while the snackbar slides out, instead of an empty box.
  const [shown, setShown] = useState<SinoNotice | null>(notice);
  if (notice !== null && notice !== shown) setShown(notice);
  const close = dismissNotice;

  return (
    <Snackbar
      open={notice !== null}
      autoHideDuration={notice ? AUTO_HIDE_MS[notice] : null}
      onClose={(_event, reason) => {
        if (reason !== "clickaway") close();
      }}
      anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
    >
      <Alert
        severity={shown === "blocked" ? "info" : "warning"}
        variant="filled"
        onClose={close}
        slotProps={{ closeButton: { title: t("bell.close"), "aria-label": t("bell.close") } }}
        sx={{ maxWidth: 560, width: "100%" }}
        data-testid="push-notice"
      >
        {shown === "blocked" && (
          <>
            <AlertTitle>{t("bell.blocked.title")}</AlertTitle>
            {t(unblockHelpKey(navigator.userAgent, navigator.maxTouchPoints))}
          </>
        )}
        {shown === "enable-failed" && t("bell.failed.enable")}
        {shown === "disable-failed" && t("bell.failed.disableBrowser")}
        {shown === "disable-server-failed" && t("bell.failed.disable")}
        {shown === "enable-timeout" && t("bell.failed.timeout")}
      </Alert>
    </Snackbar>
  );
}
