import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { formatNumber } from "../format.js";

export interface PayloadBudgetValue {
  /** The encrypted record's size, worst case of both payload forms. */
  bytes: number;
  max: number;
  /** max − bytes: negative when over. */
  remaining: number;
}

/**
 * The bytes left in the 4,096-byte encrypted push record, as text and a bar. Going over is said
 * once through a polite live region (the visible text changes with every keystroke; announcing it
 * each time would drown the field being typed in).
 */
export function PayloadBudgetIndicator({ budget }: { budget: PayloadBudgetValue }) {
  const { t } = useTranslation();
  const over = budget.remaining < 0;
  const used = Math.min(100, Math.round((budget.bytes / budget.max) * 100));
  return (
    <Box data-testid="payload-budget" data-over={over}>
      <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1, alignItems: "baseline" }}>
        <Typography variant="body2" id="payload-budget-label" component="h2" sx={{ fontWeight: 500 }}>
          {t("dashboard.compose.full.budget.label")}
        </Typography>
        <Typography variant="body2" color={over ? "error" : "text.secondary"} data-testid="payload-budget-text" id="payload-budget-text">
          {over
            ? t("dashboard.compose.full.budget.over", { over: formatNumber(-budget.remaining), max: formatNumber(budget.max) })
            : t("dashboard.compose.full.budget.remaining", { remaining: formatNumber(budget.remaining), max: formatNumber(budget.max) })}
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={used}
        color={over ? "error" : used >= 90 ? "warning" : "primary"}
        aria-labelledby="payload-budget-label"
        aria-describedby="payload-budget-text"
        aria-valuetext={t("dashboard.compose.full.budget.remaining", { remaining: formatNumber(budget.remaining), max: formatNumber(budget.max) })}
        sx={{ mt: 0.75, height: 6, borderRadius: 3 }}
      />
      <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 0.5 }}>
        {t("dashboard.compose.full.budget.hint")}
      </Typography>
      {/* Screen readers only: present from the start, so the message added later is announced. */}
      <Box aria-live="polite" data-testid="payload-budget-announcement" sx={{ position: "absolute", width: "1px", height: "1px", p: 0, m: "-1px", overflow: "hidden", clip: "rect(0 0 0 0)", whiteSpace: "nowrap", border: 0 }}>
        {over ? t("dashboard.compose.full.budget.overAnnouncement") : ""}
      </Box>
    </Box>
  );
}
