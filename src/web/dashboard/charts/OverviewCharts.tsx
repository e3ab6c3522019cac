import { useCallback } from "react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Grid from "@mui/material/Grid";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { BarChart } from "@mui/x-charts/BarChart";
import { ChartsLocalizationProvider } from "@mui/x-charts/ChartsLocalizationProvider";
import { LineChart } from "@mui/x-charts/LineChart";
import { PieChart } from "@mui/x-charts/PieChart";
import { ptBR as chartsPtBR } from "@mui/x-charts/locales";
import { STATS_DEFAULT_DAYS } from "../../../shared/api/stats.js";
import type { StatsResponse } from "../../../shared/api/stats.js";
import { LoadError } from "../components/LoadError.js";
import { formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { formatDay, formatRate } from "./chart-format.js";
import { useDashboardServices } from "../services.js";

const HEIGHT = 260;
const numberFormatter = (value: number | null) => (value === null ? "" : formatNumber(value));

/** Visão geral's charts: subscribers, sends and click rate per day; subscribers by channel and browser. */
export function OverviewCharts({ site }: { site?: string | undefined }) {
  const { t } = useTranslation();
  const { audience: api } = useDashboardServices();
  const { resource, reload } = useResource(useCallback(() => api.getStats(STATS_DEFAULT_DAYS, site), [api, site]));

  if (resource.status === "error") {
    return (
      <Card variant="outlined" sx={{ mt: 3 }}>
        <LoadError error={resource.error} onRetry={reload} />
      </Card>
    );
  }
  const stats = resource.status === "ready" ? resource.data : null;
  return (
    <ChartsLocalizationProvider localeText={chartsPtBR.components.MuiChartsLocalizationProvider.defaultProps.localeText}>
      <Typography variant="h6" component="h2" sx={{ mt: 4, mb: 2 }}>
        {t("results.charts.title", { days: STATS_DEFAULT_DAYS })}
      </Typography>
      <Grid container spacing={2} data-testid="overview-charts">
        <ChartCard title={t("results.charts.subscribersOverTime")} wide>
          {stats && <SubscribersChart stats={stats} />}
        </ChartCard>
        <ChartCard title={t("results.charts.sendsOverTime")}>{stats && <NotificationsChart stats={stats} />}</ChartCard>
        <ChartCard title={t("results.charts.clickRateOverTime")}>{stats && <ClickRateChart stats={stats} />}</ChartCard>
        <ChartCard title={t("results.charts.byChannel")}>{stats && <ByChannelChart stats={stats} />}</ChartCard>
        <ChartCard title={t("results.charts.byBrowser")}>{stats && <ByBrowserChart stats={stats} />}</ChartCard>
      </Grid>
    </ChartsLocalizationProvider>
  );
}

function ChartCard({ title, wide = false, children }: { title: string; wide?: boolean; children: ReactNode }) {
  return (
    <Grid size={{ xs: 12, md: wide ? 12 : 6 }}>
      <Card variant="outlined" component="figure" sx={{ m: 0, height: "100%" }} aria-label={title}>
        <CardContent>
          <Typography component="figcaption" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
            {title}
          </Typography>
          {children ?? <Skeleton variant="rounded" height={HEIGHT} />}
        </CardContent>
      </Card>
    </Grid>
  );
}

function Empty() {
  const { t } = useTranslation();
  return (
    <Box sx={{ height: HEIGHT, display: "flex", alignItems: "center", justifyContent: "center" }}>
      <Typography color="text.secondary">{t("results.charts.empty")}</Typography>
    </Box>
  );
}

function SubscribersChart({ stats }: { stats: StatsResponse }) {
  const { t } = useTranslation();
  const rows = stats.subscribersOverTime;
  if (rows.length === 0) return <Empty />;
  return (
    <LineChart
      height={HEIGHT}
      xAxis={[{ scaleType: "point", data: rows.map((r) => formatDay(r.date)) }]}
      yAxis={[{ valueFormatter: numberFormatter, width: 48, tickMinStep: 1 }]}
      series={[
        { label: t("results.charts.total"), data: rows.map((r) => r.total), showMark: false, valueFormatter: numberFormatter, area: true },
        { label: t("results.charts.added"), data: rows.map((r) => r.added), showMark: false, valueFormatter: numberFormatter },
        { label: t("results.charts.removed"), data: rows.map((r) => r.removed), showMark: false, valueFormatter: numberFormatter },
      ]}
    />
  );
}

function NotificationsChart({ stats }: { stats: StatsResponse }) {
  const { t } = useTranslation();
  const rows = stats.sends;
  if (rows.length === 0) return <Empty />;
  return (
    // Sends on their own axis (left), deliveries and clicks on theirs (right): on one scale, 11 sends
    // beside 10,000 deliveries drew as a 1-pixel line.
    <BarChart
      height={HEIGHT}
      xAxis={[{ scaleType: "band", data: rows.map((r) => formatDay(r.date)) }]}
      yAxis={[
        { id: "sends", valueFormatter: numberFormatter, width: 64, tickMinStep: 1, label: t("results.charts.sends") },
        { id: "messages", position: "right", valueFormatter: numberFormatter, width: 72, tickMinStep: 1, label: t("results.charts.messagesAxis") },
      ]}
      series={[
        { label: t("results.charts.sends"), data: rows.map((r) => r.sends), valueFormatter: numberFormatter, yAxisId: "sends" },
        { label: t("results.charts.accepted"), data: rows.map((r) => r.accepted), valueFormatter: numberFormatter, yAxisId: "messages" },
        { label: t("results.charts.clicked"), data: rows.map((r) => r.clicked), valueFormatter: numberFormatter, yAxisId: "messages" },
      ]}
    />
  );
}

function ClickRateChart({ stats }: { stats: StatsResponse }) {
  const { t } = useTranslation();
  const rows = stats.sends;
  if (rows.length === 0) return <Empty />;
  return (
    <LineChart
      height={HEIGHT}
      xAxis={[{ scaleType: "point", data: rows.map((r) => formatDay(r.date)) }]}
      yAxis={[{ min: 0, max: 1, valueFormatter: (v: number | null) => formatRate(v), width: 48 }]}
      series={[{ label: t("results.charts.clickRate"), data: rows.map((r) => r.clickRate), connectNulls: false, valueFormatter: formatRate }]}
    />
  );
}

function ByChannelChart({ stats }: { stats: StatsResponse }) {
  const { t } = useTranslation();
  const rows = stats.byChannel;
  if (rows.length === 0) return <Empty />;
  return (
    <BarChart
      height={Math.max(HEIGHT, rows.length * 32)}
      layout="horizontal"
      // As wide as the longest name needs (up to half the card), so names are not cut at 100 px.
      yAxis={[{ scaleType: "band", data: rows.map((r) => r.name), width: channelAxisWidth(rows.map((r) => r.name)) }]}
      xAxis={[{ valueFormatter: numberFormatter, tickMinStep: 1 }]}
      series={[{ label: t("results.charts.subscribers"), data: rows.map((r) => r.subscribers), valueFormatter: numberFormatter }]}
      hideLegend
    />
  );
}

function ByBrowserChart({ stats }: { stats: StatsResponse }) {
  const rows = stats.byBrowser.filter((r) => r.subscribers > 0);
  if (rows.length === 0) return <Empty />;
  return (
    <PieChart
      height={HEIGHT}
      series={[
        {
          data: rows.map((r, index) => ({ id: index, value: r.subscribers, label: r.browser })),
          innerRadius: 50,
          valueFormatter: (item) => formatNumber(item.value),
        },
      ]}
    />
  );
}

/** The label column for channel names: their widest, measured in the page's font, between 60 and 220 px. */
function channelAxisWidth(names: readonly string[]): number {
  const context = document.createElement("canvas").getContext("2d");
  if (!context) return 160;
  // The axis' tick labels: 12 px in the theme's font.
  context.font = `12px ${getComputedStyle(document.body).fontFamily}`;
  const widest = Math.max(0, ...names.map((name) => context.measureText(name).width));
  return Math.min(220, Math.max(60, Math.ceil(widest) + 16));
}
