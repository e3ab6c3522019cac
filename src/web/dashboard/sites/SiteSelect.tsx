import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import Checkbox from "@mui/material/Checkbox";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";

/**
 * Compose's narrowing by site: nothing ticked means every site; otherwise only the
 * subscribers made on a ticked site. Hidden while Sino's own site is the only one.
 */
export function SiteSelect({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation();
  const { sites: api } = useDashboardServices();
  const { resource } = useResource(useCallback(() => api.listSites(), [api]));
  const sites = resource.status === "ready" ? resource.data.sites : [];
  if (sites.length < 2) return null;
  const originOf = (id: string) => sites.find((s) => s.id === id)?.origin ?? id;
  return (
    <TextField
      select
      name="sites"
      label={t("sites.audience.label")}
      value={value}
      fullWidth
      helperText={value.length === 0 ? t("sites.audience.allHint") : t("sites.audience.sitesHint")}
      slotProps={{
        select: {
          multiple: true,
          displayEmpty: true,
          renderValue: (selected) => {
            const ids = selected as string[];
            return ids.length === 0 ? t("sites.audience.all") : ids.map(originOf).join(", ");
          },
          onChange: (event) => {
            const next = event.target.value;
            onChange(typeof next === "string" ? next.split(",") : (next as string[]));
          },
        },
        inputLabel: { shrink: true },
      }}
      data-testid="site-select"
    >
      {sites.map((site) => (
        <MenuItem key={site.id} value={site.id}>
          <Checkbox checked={value.includes(site.id)} size="small" />
          <ListItemText primary={site.origin} secondary={t("sites.audience.subscribers", { count: site.subscribers, formatted: formatNumber(site.subscribers) })} />
        </MenuItem>
      ))}
    </TextField>
  );
}
