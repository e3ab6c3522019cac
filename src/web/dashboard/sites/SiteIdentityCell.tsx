import { useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import KeyOutlined from "@mui/icons-material/KeyOutlined";
import type { Site } from "../../../shared/api/sites.js";
import { formatDateTime } from "../format.js";

export interface SiteIdentityCellProps {
  readonly site: Site;
  readonly admin: boolean;
  readonly timeZone: string;
  /** Generate or replace the secret (the page shows it in a dialog). */
  readonly onRotate: (site: Site) => void;
  readonly onVerificationChange: (site: Site, verification: boolean) => Promise<void>;
}

/**
 * How people are identified on a site: verification on or off (off carries the API's warning, in
 * sight), when the secret was generated and until when the previous one still counts; admins
 * switch verification and generate or replace the secret here.
 */
export function SiteIdentityCell({ site, admin, timeZone, onRotate, onVerificationChange }: SiteIdentityCellProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const { identity } = site;
  const toggle = async (verification: boolean) => {
    setSaving(true);
    try {
      await onVerificationChange(site, verification);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack spacing={0.75} sx={{ alignItems: "flex-start" }} data-testid="site-identity">
      {admin ? (
        <FormControlLabel
          control={
            <Switch
              checked={identity.verification}
              disabled={saving}
              onChange={(event) => void toggle(event.target.checked)}
              slotProps={{ input: { "aria-label": t("sites.identity.switchNamed", { origin: site.origin }) } }}
            />
          }
          label={identity.verification ? t("sites.identity.verificationOn") : t("sites.identity.verificationOff")}
        />
      ) : (
        <Chip
          size="small"
          variant="outlined"
          color={identity.verification ? "success" : "warning"}
          label={identity.verification ? t("sites.identity.verificationOn") : t("sites.identity.verificationOff")}
        />
      )}
      <Typography variant="body2" color="text.secondary" data-testid="site-identity-secret">
        {identity.rotatedAt === null ? t("sites.identity.noSecret") : t("sites.identity.rotatedAt", { date: formatDateTime(identity.rotatedAt, timeZone) })}
      </Typography>
      {identity.previousValidUntil !== null && (
        <Typography variant="body2" color="text.secondary" data-testid="site-identity-previous">
          {t("sites.identity.previousUntil", { date: formatDateTime(identity.previousValidUntil, timeZone) })}
        </Typography>
      )}
      {identity.warning !== undefined && (
        <Alert severity="warning" variant="outlined" sx={{ py: 0 }} data-testid="site-identity-warning">
          {identity.warning}
        </Alert>
      )}
      {admin && (
        <Button
          size="small"
          variant="outlined"
          startIcon={<KeyOutlined />}
          onClick={() => onRotate(site)}
          aria-label={t(identity.hasSecret ? "sites.identity.rotateNamed" : "sites.identity.generateNamed", { origin: site.origin })}
        >
          {identity.hasSecret ? t("sites.identity.rotate") : t("sites.identity.generate")}
        </Button>
      )}
    </Stack>
  );
}
