import { useTranslation } from "react-i18next";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { SUBSCRIBER_ACTIVITIES } from "../../../shared/api/engagement.js";

const ALL_SHOWN = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

/** Assinantes: only the active or only the sleeping ones (no click and no visit for SINO_SLEEPING_DAYS). */
export function ActivityFilter({ value, onChange }: { value: string; onChange: (activity: string) => void }) {
  const { t } = useTranslation();
  return (
    <TextField select size="small" label={t("engagement.filter.label")} value={value} onChange={(e) => onChange(e.target.value)} slotProps={ALL_SHOWN} sx={{ minWidth: 200 }} data-testid="activity-filter">
      <MenuItem value="">{t("subscribers.filters.any")}</MenuItem>
      {SUBSCRIBER_ACTIVITIES.map((activity) => (
        <MenuItem key={activity} value={activity}>
          {t(`engagement.filter.${activity}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
