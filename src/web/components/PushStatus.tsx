import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSino } from "@sino/react";
import type { SinoStatus, UnavailableReason } from "@sino/react";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import { unblockHelpKey } from "../../client/index.js";

/**
 * The bell's state in words, and why it is missing when it is. While the browser blocks
 * notifications (on load too, not only after a click) it says so, with this browser's own steps
 * to unblock.
 */
export function PushStatus({ action }: { action?: ReactNode }) {
  const { t } = useTranslation();
  const { state, hiddenReason } = useSino();
  return (
    // The test id sits on the message, so the text read back is the status alone, without the action.
    <Alert
      severity={SEVERITY[state]}
      variant="outlined"
      role="status"
      action={action}
      slotProps={{ message: { "data-testid": "push-status", "data-state": state } as object }}
      sx={{ alignItems: "center" }}
    >
      {state === "denied" ? (
        <>
          <AlertTitle>{t("bell.blocked.title")}</AlertTitle>
          {t(unblockHelpKey(navigator.userAgent, navigator.maxTouchPoints))}
        </>
      ) : (
        statusText(state, hiddenReason, t)
      )}
    </Alert>
  );
}

const SEVERITY: Record<SinoStatus, "info" | "success" | "warning"> = {
  checking: "info",
  off: "info",
  on: "success",
  denied: "warning",
  hidden: "warning",
};

function statusText(state: Exclude<SinoStatus, "denied">, hiddenReason: UnavailableReason | null, t: (key: string) => string): string {
  switch (state) {
    case "checking":
      return t("app.home.status.checking");
    case "on":
      return t("app.home.status.on");
    case "off":
      return t("app.home.status.off");
    case "hidden":
      return hiddenText(hiddenReason ?? "unsupported", t);
  }
}

function hiddenText(reason: UnavailableReason, t: (key: string) => string): string {
  switch (reason) {
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
