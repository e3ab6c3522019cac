import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate, useParams } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { ChartsLocalizationProvider } from "@mui/x-charts/ChartsLocalizationProvider";
import { LineChart } from "@mui/x-charts/LineChart";
import { ptBR as chartsPtBR } from "@mui/x-charts/locales";
import type { SegmentDetail } from "../api/segments-api.js";
import { formatDay } from "../charts/chart-format.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { LoadError } from "../components/LoadError.js";
import { ListSkeleton } from "../components/ListSkeleton.js";
import { PageHeading } from "../components/PageHeading.js";
import { useNotice } from "../components/useNotice.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { NotificationStatusChip } from "../notifications/NotificationStatusChip.js";
import { DASHBOARD_PATHS, notificationPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { ExplainPanel } from "./ExplainPanel.js";
import { MONOSPACE } from "./SegmentEditor.js";
import { segmentCountText } from "./segment-editor.js";
import { SegmentDialog } from "./SegmentDialog.js";

const CHART_HEIGHT = 260;
const numberFormatter = (value: number | null) => (value === null ? "" : formatNumber(value));

/** Segmento (admin): the expression, its size now and day by day, the sends that used it, and Explicar. */
export function SegmentPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const { segments: api } = useDashboardServices();
  const navigate = useNavigate();
  const { resource, reload, update } = useResource(useCallback(() => api.getSegment(id), [api, id]));
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [noticeElement, showNotice] = useNotice();

  const back = (
    <Button component={RouterLink} to={DASHBOARD_PATHS.segments}>
      {t("segments.detail.back")}
    </Button>
  );
  if (resource.status === "loading") {
    return (
      <>
        <PageHeading title={t("segments.detail.loading")} action={back} />
        <Card variant="outlined">
          <ListSkeleton />
        </Card>
      </>
    );
  }
  if (resource.status === "error") {
    return (
      <>
        <PageHeading title={t("segments.detail.title")} action={back} />
        <Card variant="outlined">
          <LoadError error={resource.error} onRetry={reload} />
        </Card>
      </>
    );
  }
  const segment = resource.data;
  const actions = (
    <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap" }} useFlexGap>
      {back}
      <Button variant="outlined" component={RouterLink} to={`${DASHBOARD_PATHS.compose}?segmento=${encodeURIComponent(segment.id)}`}>
        {t("segments.detail.send")}
      </Button>
      <Button variant="outlined" onClick={() => setEditing(true)}>
        {t("segments.detail.edit")}
      </Button>
      <Button variant="outlined" color="error" onClick={() => setDeleting(true)}>
        {t("segments.detail.delete")}
      </Button>
    </Stack>
  );

  return (
    <>
      <PageHeading title={segment.name} subtitle={segment.description ?? t("segments.detail.subtitle")} action={actions} />
      <Stack spacing={3}>
        <SummaryCard segment={segment} />
        <SizeChart segment={segment} />
        <SendsCard segment={segment} />
        <ExplainPanel source={{ segment: segment.id }} />
      </Stack>
      <SegmentDialog
        open={editing}
        segment={segment}
        onClose={() => setEditing(false)}
        onSaved={(saved) => {
          update((previous) => ({ ...previous, ...saved }));
          showNotice({ severity: "success", text: t("segments.detail.saved") });
          // The new size joins the day's history: read it again.
          reload();
        }}
      />
      <ConfirmDialog
        open={deleting}
        title={t("segments.detail.deleteTitle")}
        text={t("segments.detail.deleteText", { name: segment.name })}
        confirmLabel={t("segments.detail.delete")}
        destructive
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await api.deleteSegment(segment.id);
          void navigate(DASHBOARD_PATHS.segments);
        }}
      />
      {noticeElement}
    </>
  );
}

function SummaryCard({ segment }: { segment: SegmentDetail }) {
  const { t } = useTranslation();
  const { timeZone } = useDashboardServices();
  return (
    <Card variant="outlined" component="section" aria-labelledby="segment-summary-title">
      <CardContent>
        <Typography id="segment-summary-title" variant="h6" component="h2" sx={{ mb: 1 }}>
          {t("segments.detail.expression")}
        </Typography>
        <Box component="code" data-testid="segment-expression" sx={{ display: "block", fontFamily: MONOSPACE, whiteSpace: "pre-wrap", overflowWrap: "anywhere", p: 1.5, bgcolor: "action.hover", borderRadius: 1 }}>
          {segment.expression}
        </Box>
        <Box component="dl" sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "max-content 1fr" }, columnGap: 2, rowGap: 0.5, mt: 2, mb: 0, "& dd": { m: 0 } }}>
          <Typography component="dt" color="text.secondary">
            {t("segments.editor.tagKinds")}
          </Typography>
          <Typography component="dd">{t(`segments.editor.tagKindsOptions.${segment.tagKinds}`)}</Typography>
          <Typography component="dt" color="text.secondary">
            {t("segments.detail.size")}
          </Typography>
          <Typography component="dd" data-testid="segment-size">
            {segment.size ? t("segments.detail.sizeAt", { size: segmentCountText(t, segment.size), when: formatDateTime(segment.size.measuredAt, timeZone) }) : t("segments.list.notMeasured")}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}

function SizeChart({ segment }: { segment: SegmentDetail }) {
  const { t } = useTranslation();
  const rows = segment.history;
  return (
    <Card variant="outlined" component="figure" sx={{ m: 0 }} aria-label={t("segments.detail.history")} data-testid="segment-history">
      <CardContent>
        <Typography component="figcaption" variant="h6" sx={{ mb: 1 }}>
          {t("segments.detail.history")}
        </Typography>
        {rows.length === 0 ? (
          <Typography color="text.secondary">{t("segments.detail.noHistory")}</Typography>
        ) : (
          <ChartsLocalizationProvider localeText={chartsPtBR.components.MuiChartsLocalizationProvider.defaultProps.localeText}>
            <LineChart
              height={CHART_HEIGHT}
              xAxis={[{ scaleType: "point", data: rows.map((row) => formatDay(row.day)) }]}
              yAxis={[{ valueFormatter: numberFormatter, width: 56, tickMinStep: 1, min: 0 }]}
              series={[
                { label: t("segments.detail.subscriptions"), data: rows.map((row) => row.subscriptions), showMark: rows.length < 20, valueFormatter: numberFormatter },
                { label: t("segments.detail.people"), data: rows.map((row) => row.people), showMark: rows.length < 20, valueFormatter: numberFormatter },
              ]}
            />
          </ChartsLocalizationProvider>
        )}
      </CardContent>
    </Card>
  );
}

function SendsCard({ segment }: { segment: SegmentDetail }) {
  const { t } = useTranslation();
  const { timeZone } = useDashboardServices();
  return (
    <Card variant="outlined" component="section" aria-labelledby="segment-sends-title">
      <Typography id="segment-sends-title" variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
        {t("segments.detail.sends")}
      </Typography>
      {segment.sends.length === 0 ? (
        <Typography sx={{ p: 2 }} color="text.secondary">
          {t("segments.detail.noSends")}
        </Typography>
      ) : (
        <Table aria-labelledby="segment-sends-title" data-testid="segment-sends">
          <TableHead>
            <TableRow>
              <TableCell>{t("segments.detail.columns.title")}</TableCell>
              <TableCell>{t("segments.detail.columns.status")}</TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("segments.detail.columns.createdAt")}</TableCell>
              <TableCell align="right">{t("segments.detail.columns.queued")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {segment.sends.map((send) => (
              <TableRow key={send.id} data-testid="segment-send-row">
                <TableCell sx={{ overflowWrap: "anywhere" }}>
                  <Link component={RouterLink} to={notificationPagePath(send.id)}>
                    {send.title}
                  </Link>
                </TableCell>
                <TableCell>
                  <NotificationStatusChip status={send.status} />
                </TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" }, whiteSpace: "nowrap" }}>{formatDateTime(send.createdAt, timeZone)}</TableCell>
                <TableCell align="right">{formatNumber(send.queued)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}
