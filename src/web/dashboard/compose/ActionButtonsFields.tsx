import { useTranslation } from "react-i18next";
import Accordion from "@mui/material/Accordion";
import AccordionDetails from "@mui/material/AccordionDetails";
import AccordionSummary from "@mui/material/AccordionSummary";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import ExpandMore from "@mui/icons-material/ExpandMore";
import { PAYLOAD_LIMITS } from "../../../shared/api/notification-payload.js";
import { filledActions } from "./compose-form.js";
import type { ActionField, ComposeAction } from "./compose-form.js";

export interface ActionButtonsFieldsProps {
  actions: readonly ComposeAction[];
  onChange: (actions: ComposeAction[]) => void;
  /** The message beside a field, or undefined. */
  errorOf: (field: ActionField) => string | undefined;
  onBlur: (field: ActionField) => void;
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
}

/**
 * "Botões de ação": up to two buttons (label + link), in a disclosure whose summary says how many
 * are set. A removed row gives its place to the next, so the buttons stay "ação 1" and "ação 2".
 */
export function ActionButtonsFields({ actions, onChange, errorOf, onBlur, expanded, onExpandedChange }: ActionButtonsFieldsProps) {
  const { t } = useTranslation();
  const count = filledActions(actions).length;
  const update = (index: number, patch: Partial<ComposeAction>) => onChange(actions.map((action, i) => (i === index ? { ...action, ...patch } : action)));
  const focusRow = (index: number) => {
    // After React draws the row: its label field.
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[name="actions.${index}.label"]`)?.focus());
  };
  return (
    <Accordion variant="outlined" disableGutters expanded={expanded} onChange={(_, open) => onExpandedChange(open)} slotProps={{ heading: { component: "h2" } }}>
      <AccordionSummary expandIcon={<ExpandMore />} aria-controls="compose-actions" id="compose-actions-summary">
        <Typography sx={{ flexGrow: 1 }}>{t("dashboard.compose.full.actions.title")}</Typography>
        <Typography color="text.secondary" variant="body2" sx={{ mr: 1 }} data-testid="actions-summary">
          {t("dashboard.compose.full.actions.summary", { count })}
        </Typography>
      </AccordionSummary>
      <AccordionDetails id="compose-actions">
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {t("dashboard.compose.full.actions.intro")}
          </Typography>
          {actions.map((action, index) => {
            const number = index + 1;
            const label: ActionField = `actions.${index as 0 | 1}.label`;
            const url: ActionField = `actions.${index as 0 | 1}.url`;
            return (
              <Box key={index} component="fieldset" sx={{ border: 1, borderColor: "divider", borderRadius: 1, m: 0, px: 2, pt: 1, pb: 2 }}>
                <Box component="legend" sx={{ px: 0.5, typography: "body2", color: "text.secondary" }}>
                  {t("dashboard.compose.full.actions.group", { number })}
                </Box>
                <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ alignItems: "flex-start" }}>
                  <TextField
                    name={label}
                    label={t("dashboard.compose.full.actions.label", { number })}
                    value={action.label}
                    onChange={(event) => update(index, { label: event.target.value.replace(/[\r\n]/g, " ") })}
                    onBlur={() => onBlur(label)}
                    error={errorOf(label) !== undefined}
                    helperText={errorOf(label) ?? t("dashboard.compose.full.actions.labelHint", { max: PAYLOAD_LIMITS.actionLabel })}
                    fullWidth
                  />
                  <TextField
                    name={url}
                    type="url"
                    label={t("dashboard.compose.full.actions.url", { number })}
                    placeholder={t("dashboard.compose.placeholders.url")}
                    value={action.url}
                    onChange={(event) => update(index, { url: event.target.value })}
                    onBlur={() => onBlur(url)}
                    error={errorOf(url) !== undefined}
                    helperText={errorOf(url) ?? t("dashboard.compose.full.actions.urlHint")}
                    fullWidth
                  />
                  <IconButton
                    aria-label={t("dashboard.compose.full.actions.remove", { number })}
                    onClick={() => {
                      onChange(actions.filter((_, i) => i !== index));
                      // Focus stays in the group: on the row that took this place, or on "Adicionar botão".
                      requestAnimationFrame(() => (document.querySelector<HTMLElement>(`[name="actions.${Math.min(index, actions.length - 2)}.label"]`) ?? document.getElementById("compose-actions-add"))?.focus());
                    }}
                    sx={{ mt: { sm: 1 } }}
                  >
                    <DeleteOutlined />
                  </IconButton>
                </Stack>
              </Box>
            );
          })}
          <Box>
            <Button
              id="compose-actions-add"
              startIcon={<AddOutlined />}
              onClick={() => {
                onChange([...actions, { label: "", url: "" }]);
                focusRow(actions.length);
              }}
              disabled={actions.length >= PAYLOAD_LIMITS.actions}
              aria-describedby={actions.length >= PAYLOAD_LIMITS.actions ? "compose-actions-limit" : undefined}
            >
              {t("dashboard.compose.full.actions.add")}
            </Button>
            {actions.length >= PAYLOAD_LIMITS.actions && (
              <Typography id="compose-actions-limit" variant="caption" color="text.secondary" sx={{ display: "block" }}>
                {t("dashboard.compose.full.actions.limit")}
              </Typography>
            )}
          </Box>
        </Stack>
      </AccordionDetails>
    </Accordion>
  );
}
