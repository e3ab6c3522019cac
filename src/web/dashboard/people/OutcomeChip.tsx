import { useTranslation } from "react-i18next";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import type { RecipientOutcome } from "../../../shared/api/recipients.js";

const COLOR = { accepted: "success", retrying: "info", failed: "error", removed: "default", limited: "warning", asleep: "default", waiting: "info", expired: "warning" } as const;

/** An outcome's label; the gates' own (`limited`, `asleep`; `waiting`, `expired`) come from their namespaces. */
export function outcomeLabel(t: (key: string) => string, outcome: RecipientOutcome): string {
  if (outcome === "limited" || outcome === "asleep") return t(`delivery-rules.outcomes.${outcome}`);
  if (outcome === "waiting" || outcome === "expired") return t(`local-time.outcome.${outcome}`);
  return t(`people.outcome.${outcome}`);
}

/** What became of one push; the classifier's reason in a hint, focusable for keyboard users. */
export function OutcomeChip({ outcome, reason }: { outcome: RecipientOutcome; reason: string | null }) {
  const { t } = useTranslation();
  const chip = <Chip size="small" color={COLOR[outcome]} variant="outlined" label={outcomeLabel(t, outcome)} data-testid="recipient-outcome" {...(reason === null ? {} : { tabIndex: 0 })} />;
  if (reason === null) return chip;
  return (
    // A retry's reason in words (the classifier's code for any other reason).
    <Tooltip title={t("people.reason", { reason: t(`notifications.retries.reasons.${reason}`, { defaultValue: reason }) })} describeChild>
      {chip}
    </Tooltip>
  );
}
