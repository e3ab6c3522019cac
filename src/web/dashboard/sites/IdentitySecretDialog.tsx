import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import type { IdentitySecretResponse } from "../../../shared/api/sites.js";
import { formatDateTime } from "../format.js";
import { CopyableCode } from "./CopyableCode.js";

const HOUR_MS = 3_600_000;

/**
 * The identity secret, right after it was generated: the only time Sino shows it. Says where it
 * goes (the site's server, never the page), what the server computes with it, and how long the
 * previous one still counts after a replacement.
 */
export function IdentitySecretDialog({ shown, timeZone, onClose }: { shown: IdentitySecretResponse | null; timeZone: string; onClose: () => void }) {
  const { t } = useTranslation();
  const identity = shown?.site.identity;
  const graceHours =
    identity?.previousValidUntil != null && identity.rotatedAt !== null ? Math.round((Date.parse(identity.previousValidUntil) - Date.parse(identity.rotatedAt)) / HOUR_MS) : null;
  return (
    <Dialog open={shown !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="identity-secret-title" aria-describedby="identity-secret-lead">
      <DialogTitle id="identity-secret-title">{t("sites.identity.secretTitle", { origin: shown?.site.origin ?? "" })}</DialogTitle>
      {shown !== null && (
        <DialogContent>
          <DialogContentText id="identity-secret-lead" sx={{ mb: 2 }}>
            {t("sites.identity.secretLead")}
          </DialogContentText>
          <Typography variant="subtitle2" component="p" id="identity-secret-label">
            {t("sites.identity.secretLabel")}
          </Typography>
          <CopyableCode code={shown.secret} testId="identity-secret" labelledBy="identity-secret-label" copyLabel={t("sites.identity.copySecret")} />
          <Typography variant="body2" sx={{ mt: 2, mb: 1 }}>
            {t("sites.identity.secretHowTo")}
          </Typography>
          {graceHours !== null && identity?.previousValidUntil != null && (
            <Typography variant="body2" data-testid="identity-secret-grace">
              {t("sites.identity.secretGrace", { count: graceHours, date: formatDateTime(identity.previousValidUntil, timeZone) })}
            </Typography>
          )}
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={onClose}>
          {t("sites.identity.done")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
