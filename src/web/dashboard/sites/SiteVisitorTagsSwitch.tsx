import { useState } from "react";
import { useTranslation } from "react-i18next";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import type { Site } from "../../../shared/api/sites.js";

export interface SiteVisitorTagsSwitchProps {
  readonly site: Site;
  readonly admin: boolean;
  readonly onChange: (site: Site, visitorTags: boolean) => Promise<void>;
}

/**
 * Whether the site's pages may set visitor tags (`Sino.tag`): admins switch it, others see it.
 * Trusted tags are not affected: they need the host's server either way.
 */
export function SiteVisitorTagsSwitch({ site, admin, onChange }: SiteVisitorTagsSwitchProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const label = t("sites.visitorTags.label");
  if (!admin) {
    return <Chip size="small" variant="outlined" label={`${label}: ${t(site.visitorTags ? "sites.visitorTags.yes" : "sites.visitorTags.no")}`} />;
  }
  const toggle = async (allowed: boolean) => {
    setSaving(true);
    try {
      await onChange(site, allowed);
    } finally {
      setSaving(false);
    }
  };
  return (
    <FormControlLabel
      data-testid="site-visitor-tags"
      control={
        <Switch
          checked={site.visitorTags}
          disabled={saving}
          onChange={(event) => void toggle(event.target.checked)}
          slotProps={{ input: { "aria-label": t("sites.visitorTags.switchNamed", { origin: site.origin }) } }}
        />
      }
      label={label}
    />
  );
}
