import { useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Typography from "@mui/material/Typography";
import type { ChannelChoice } from "./useChannelChoice.js";

/** Under the checkboxes: the limit, an empty choice, the save's outcome. */
export function ChannelChoiceStatus({ choice }: { choice: ChannelChoice }) {
  const { t } = useTranslation();
  // "Salvo" for a save made while this view is open, not for one made before it opened; a change
  // after it (dirty) hides it again.
  const [savesAtOpen] = useState(choice.saves);
  const savedShown = choice.saves > savesAtOpen;

  return (
    <>
      {choice.limit !== null && (
        <Typography variant="body2" color={choice.overLimit ? "error" : "text.secondary"}>
          {choice.overLimit ? t("preferences.overLimit") : t("preferences.limit", { count: choice.limit })}
        </Typography>
      )}
      {choice.draft.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t("preferences.noneSelected")}
        </Typography>
      )}
      {choice.saveError !== null && (
        <Alert severity="error" role="alert">
          {t("preferences.saveFailed", { reason: choice.saveError === "" ? t("preferences.saveFailedNetwork") : choice.saveError })}
        </Alert>
      )}
      {savedShown && !choice.dirty && choice.saveError === null && (
        <Alert severity="success" role="status" data-testid="channels-saved">
          {t("preferences.saved")}
        </Alert>
      )}
    </>
  );
}
