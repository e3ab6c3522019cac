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
 * Compose's audience: nobody ticked means everyone; otherwise the subscribers of any ticked
 * channel. Only active channels are offered (archived ones cannot be sent to).
 */
export function AudienceSelect({ value, onChange, error }: { value: string[]; onChange: (slugs: string[]) => void; error?: string | undefined }) {
  const { t } = useTranslation();
  const { audience: api } = useDashboardServices();
  const { resource } = useResource(useCallback(() => api.listChannels(), [api]));
  const channels = resource.status === "ready" ? resource.data.filter((c) => !c.archived) : [];
  const nameOf = (slug: string) => channels.find((c) => c.slug === slug)?.name ?? slug;
  const hint =
    resource.status === "ready" && channels.length === 0 ? t("channels.audience.noChannels") : value.length === 0 ? t("channels.audience.allHint") : t("channels.audience.channelsHint");
  return (
    <TextField
      select
      name="audience"
      label={t("dashboard.compose.fields.audience")}
      value={value}
      fullWidth
      error={error !== undefined}
      helperText={error ?? hint}
      slotProps={{
        select: {
          multiple: true,
          displayEmpty: true,
          renderValue: (selected) => {
            const slugs = selected as string[];
            return slugs.length === 0 ? t("dashboard.compose.audience.all") : slugs.map(nameOf).join(", ");
          },
          onChange: (event) => {
            const next = event.target.value;
            onChange(typeof next === "string" ? next.split(",") : (next as string[]));
          },
        },
        inputLabel: { shrink: true },
      }}
      disabled={resource.status === "ready" && channels.length === 0}
      data-testid="audience-select"
    >
      {channels.map((channel) => (
        <MenuItem key={channel.slug} value={channel.slug}>
          <Checkbox checked={value.includes(channel.slug)} size="small" />
          <ListItemText primary={channel.name} secondary={t("channels.audience.subscribers", { count: channel.subscribers, formatted: formatNumber(channel.subscribers) })} />
        </MenuItem>
      ))}
    </TextField>
  );
}
