import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import { useAppSelector } from "../hooks/useAppStore.js";
import type { BellAvailability } from "../state/push-slice.js";

/** The bell's state in words, and why it is missing when it is. */
export function PushStatus({ action }: { action?: ReactNode }) {
  const { t } = useTranslation();
  const { availability, token } = useAppSelector((state) => state.push);
  const text = statusText(availability, token !== null, t);
  const severity = availability === "available" ? (token ? "success" : "info") : availability === "checking" ? "info" : "warning";
  return (
    // The test id sits on the message, so the text read back is the status alone, without the action.
    <Alert
      severity={severity}
      variant="outlined"
      role="status"
      action={action}
      slotProps={{ message: { "data-testid": "push-status" } as object }}
      sx={{ alignItems: "center" }}
    >
      {text}
    </Alert>
  );
}

function statusText(availability: BellAvailability, on: boolean, t: (key: string) => string): string {
  switch (availability) {
    case "checking":
      return t("app.home.status.checking");
    case "available":
      return on ? t("app.home.status.on") : t("app.home.status.off");
    case "insecure":
      return t("app.home.status.insecure");
    case "unsupported":
      return t("app.home.status.unsupported");
    case "webview":
      return t("app.home.status.webview");
    case "ios-browser-tab":
      return t("app.home.status.iosBrowserTab");
  }
}
