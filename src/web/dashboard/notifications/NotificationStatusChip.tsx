import { useTranslation } from "react-i18next";
import Chip from "@mui/material/Chip";
import type { NotificationStatus } from "../../../shared/api/notifications.js";

const COLORS: Record<NotificationStatus, "default" | "info" | "primary" | "success" | "warning" | "error"> = {
  scheduled: "info",
  queued: "primary",
  sending: "primary",
  completed: "success",
  cancelled: "default",
  failed: "error",
  // Not a success: nobody received it. Neutral, as a cancelled send.
  no_recipients: "default",
};

/** A notification's status in a word, coloured by where it stands. */
export function NotificationStatusChip({ status, size = "small" }: { status: NotificationStatus; size?: "small" | "medium" }) {
  const { t } = useTranslation();
  return <Chip size={size} color={COLORS[status]} variant={status === "cancelled" || status === "no_recipients" ? "outlined" : "filled"} label={t(`notifications.status.${status}`)} data-testid="send-status" />;
}

/** Share of the targets settled (accepted, failed, removed or expired while waiting), 0–100; a notification to nobody is done. */
export function settledPercent(counts: { queued: number; accepted: number; failed: number; removed: number; expired?: number }): number {
  if (counts.queued === 0) return 0;
  return Math.min(100, Math.round(((counts.accepted + counts.failed + counts.removed + (counts.expired ?? 0)) / counts.queued) * 100));
}
