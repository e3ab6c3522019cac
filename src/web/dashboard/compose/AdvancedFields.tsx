import { useTranslation } from "react-i18next";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import ExpandMore from "@mui/icons-material/ExpandMore";
import { NOTIFICATION_LIMITS } from "../../../shared/api/notifications.js";
import { PAYLOAD_LIMITS } from "../../../shared/api/notification-payload.js";
import { formatNumber } from "../format.js";
import { parseData } from "./compose-form.js";
import type { ComposeValues } from "./compose-form.js";

type AdvancedText = "badge" | "appBadge" | "data";
type AdvancedSwitch = "renotify" | "requireInteraction" | "silent";

export interface AdvancedFieldsProps {
  values: Pick<ComposeValues, AdvancedText | AdvancedSwitch>;
  set: <K extends AdvancedText | AdvancedSwitch>(field: K, value: ComposeValues[K]) => void;
  errorOf: (field: AdvancedText) => string | undefined;
  onBlur: (field: AdvancedText) => void;
  collapseKey: string;
  onCollapseKeyChange: (value: string) => void;
  collapseKeyError: string | undefined;
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
}

/**
 * "Opções avançadas": collapse key and "notificar de novo" (which only means something with a
 * key), "exigir interação", "silenciosa", the badge, the app badge count and the custom data,
 * checked as it is typed.
 */
export function AdvancedFields({ values, set, errorOf, onBlur, collapseKey, onCollapseKeyChange, collapseKeyError, expanded, onExpandedChange }: AdvancedFieldsProps) {
  const { t } = useTranslation();
  const hasKey = collapseKey.trim() !== "";
  const data = parseData(values.data);
  const switchRow = (field: AdvancedSwitch, hint: string, disabled = false) => (
    <FormControl>
      <FormControlLabel
        control={<Switch name={field} checked={values[field] && !disabled} disabled={disabled} onChange={(event) => set(field, event.target.checked)} slotProps={{ input: { "aria-describedby": `${field}-hint` } }} />}
        label={t(`dashboard.compose.full.advanced.${field}`)}
      />
      <FormHelperText id={`${field}-hint`} sx={{ mx: 0, mt: 0 }}>
        {hint}
      </FormHelperText>
    </FormControl>
  );
  return (
    <Accordion variant="outlined" disableGutters expanded={expanded} onChange={(_, open) => onExpandedChange(open)} slotProps={{ heading: { component: "h2" } }}>
      <AccordionSummary expandIcon={<ExpandMore />} aria-controls="compose-advanced" id="compose-advanced-summary">
        <Typography>{t("dashboard.compose.advanced.title")}</Typography>
      </AccordionSummary>
      <AccordionDetails id="compose-advanced">
        <Stack spacing={2}>
          <TextField
            name="collapseKey"
            label={t("dashboard.compose.advanced.collapseKey")}
            value={collapseKey}
            onChange={(event) => onCollapseKeyChange(event.target.value)}
            fullWidth
            error={collapseKeyError !== undefined}
            helperText={collapseKeyError ?? t("dashboard.compose.advanced.collapseKeyHint")}
            slotProps={{ htmlInput: { maxLength: NOTIFICATION_LIMITS.collapseKey } }}
          />
          {switchRow("renotify", hasKey ? t("dashboard.compose.full.advanced.renotifyHint") : t("dashboard.compose.full.advanced.renotifyNeedsKey"), !hasKey)}
          {switchRow("requireInteraction", t("dashboard.compose.full.advanced.requireInteractionHint"))}
          {switchRow("silent", t("dashboard.compose.full.advanced.silentHint"))}
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              name="badge"
              type="url"
              label={t("dashboard.compose.full.advanced.badge")}
              placeholder={t("dashboard.compose.placeholders.image")}
              value={values.badge}
              onChange={(event) => set("badge", event.target.value)}
              onBlur={() => onBlur("badge")}
              error={errorOf("badge") !== undefined}
              helperText={errorOf("badge") ?? t("dashboard.compose.full.advanced.badgeHint")}
              fullWidth
            />
            <TextField
              name="appBadge"
              label={t("dashboard.compose.full.advanced.appBadge")}
              value={values.appBadge}
              onChange={(event) => set("appBadge", event.target.value)}
              onBlur={() => onBlur("appBadge")}
              error={errorOf("appBadge") !== undefined}
              helperText={errorOf("appBadge") ?? t("dashboard.compose.full.advanced.appBadgeHint", { max: formatNumber(PAYLOAD_LIMITS.appBadge) })}
              slotProps={{ htmlInput: { inputMode: "numeric", pattern: "[0-9]*" } }}
              fullWidth
            />
          </Stack>
          <TextField
            name="data"
            label={t("dashboard.compose.full.advanced.data")}
            value={values.data}
            onChange={(event) => set("data", event.target.value)}
            onBlur={() => onBlur("data")}
            multiline
            minRows={2}
            maxRows={8}
            fullWidth
            error={errorOf("data") !== undefined}
            helperText={
              errorOf("data") ??
              (data?.ok ? t("dashboard.compose.full.advanced.dataSize", { bytes: formatNumber(data.bytes), max: formatNumber(PAYLOAD_LIMITS.dataBytes) }) : t("dashboard.compose.full.advanced.dataHint", { max: formatNumber(PAYLOAD_LIMITS.dataBytes) }))
            }
            slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: "monospace" } }, formHelperText: { "aria-live": "polite" } as object }}
          />
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}
