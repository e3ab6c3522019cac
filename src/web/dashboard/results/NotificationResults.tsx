import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import { notificationResultsCsvPath } from "../../../shared/api/routes.js";
import { formatNumber } from "../format.js";
import { formatRate } from "../charts/chart-format.js";

/** The event counts a notification's presenter carries (absent from a server older than event reports). */
export interface EventCountsLike {
  shown?: number;
  clicked?: number;
  closed?: number;
  /** Received by the browser but not shown as sent (engagement). */
  notShown?: number;
  clickRate?: number | null;
  /** Clicks on the notification itself (`open`) and on its action buttons. */
  clickedByAction?: { open: number; "1": number; "2": number };
}

const CLICK_TARGETS = ["open", "1", "2"] as const;

/** Envio's results beyond delivery: shown, clicked, closed, click rate, and the CSV export. */
export function NotificationResults({ id, counts, actions = [] }: { id: string; counts: EventCountsLike; actions?: readonly { label: string }[] }) {
  const { t } = useTranslation();
  const byAction = counts.clickedByAction;
  // "abrir", then each button the send had (or that was clicked: a count never hides).
  const clickTargets = byAction === undefined ? [] : CLICK_TARGETS.filter((target, index) => index === 0 || index <= actions.length || byAction[target] > 0);
  const figures: [string, string, string?][] = [
    ["shown", formatNumber(counts.shown ?? 0)],
    ["clicked", formatNumber(counts.clicked ?? 0)],
    ["closed", formatNumber(counts.closed ?? 0)],
    ["notShown", formatNumber(counts.notShown ?? 0), t("engagement.results.notShownHint")],
    ["clickRate", counts.clickRate === null || counts.clickRate === undefined ? t("results.send.noRate") : formatRate(counts.clickRate), t("results.send.clickRateHint")],
  ];
  return (
    <Card variant="outlined" data-testid="send-results">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ justifyContent: "space-between", alignItems: { sm: "center" }, mb: 2 }}>
          <Typography variant="h6" component="h2">
            {t("results.send.title")}
          </Typography>
          <Button variant="outlined" size="small" startIcon={<FileDownloadOutlined />} href={notificationResultsCsvPath(id)} download>
            {t("results.send.exportCsv")}
          </Button>
        </Stack>
        <Stack direction="row" useFlexGap spacing={4} sx={{ flexWrap: "wrap" }} component="dl">
          {figures.map(([key, value, hint]) => {
            const label = key === "notShown" ? t("engagement.results.notShown") : t(`results.send.${key}`);
            const term = (
              <Typography component="dt" variant="body2" color="text.secondary">
                {label}
              </Typography>
            );
            return (
              <div key={key} data-testid={`result-${key}`}>
                {hint ? <Tooltip title={hint}>{term}</Tooltip> : term}
                <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 600 }}>
                  {value}
                </Typography>
              </div>
            );
          })}
        </Stack>
        {clickTargets.length > 1 && byAction !== undefined && (
          <>
            <Typography variant="subtitle2" component="h3" sx={{ mt: 3, mb: 1 }} id="clicks-by-action">
              {t("notifications.full.clicksByAction")}
            </Typography>
            <Stack direction="row" useFlexGap spacing={4} sx={{ flexWrap: "wrap" }} component="dl" aria-labelledby="clicks-by-action" data-testid="clicks-by-action">
              {clickTargets.map((target, index) => {
                const name = t(`notifications.full.clicks.${target}`);
                const label = index === 0 ? undefined : actions[index - 1]?.label;
                return (
                  <div key={target} data-testid={`clicks-${target}`}>
                    <Typography component="dt" variant="body2" color="text.secondary">
                      {label === undefined ? name : t("notifications.full.clickLabel", { name, label })}
                    </Typography>
                    <Typography component="dd" variant="h6" sx={{ m: 0, fontWeight: 600 }}>
                      {formatNumber(byAction[target])}
                    </Typography>
                  </div>
                );
              })}
            </Stack>
          </>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t("results.send.eventsNote")}
        </Typography>
      </CardContent>
    </Card>
  );
}
