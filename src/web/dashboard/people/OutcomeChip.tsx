import { useTranslation } from "react-i18next";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import type { RecipientOutcome } from "../../../shared/api/recipients.js";

const COLOR = { accepted: "success", retrying: "info", failed: "error", removed: "default", waiting: "info", expired: "warning" } as const;

/** What became of one push; the classifier's reason in a hint, focusable for keyboard users. */
export function OutcomeChip({ outcome, reason }: { outcome: RecipientOutcome; reason: string | null }) {
  const { t } = useTranslation();
  const chip = <Chip size="small" color={COLOR[outcome]} variant="outlined" label={outcome === "waiting" || outcome === "expired" ? t(`local-time.outcome.${outcome}`) : t(`people.outcome.${outcome}`)} data-testid="recipient-outcome" {...(reason === null ? {} : { tabIndex: 0 })} />;
  if (reason === null) return chip;
  return (
    // A retry's reason in words (the classifier's code for any other reason).
    <Tooltip title={t("people.reason", { reason: t(`notifications.retries.reasons.${reason}`, { defaultValue: reason }) })} describeChild>
      {chip}
    </Tooltip>
  );
}
