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
  clickRate?: number | null;
}

/** Envio's results beyond delivery: shown, clicked, closed, click rate, and the CSV export. */
export function NotificationResults({ id, counts }: { id: string; counts: EventCountsLike }) {
  const { t } = useTranslation();
  const figures: [string, string, string?][] = [
    ["shown", formatNumber(counts.shown ?? 0)],
    ["clicked", formatNumber(counts.clicked ?? 0)],
    ["closed", formatNumber(counts.closed ?? 0)],
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
            const label = t(`results.send.${key}`);
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
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t("results.send.eventsNote")}
        </Typography>
      </CardContent>
    </Card>
  );
}
