import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useSearchParams } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import InputAdornment from "@mui/material/InputAdornment";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import Search from "@mui/icons-material/Search";
import { NOTIFICATION_STATUSES, type Notification, type NotificationStatus } from "../../../shared/api/notifications.js";
import { EmptyState } from "../components/EmptyState.js";
import { ListFilterSelect } from "../components/ListFilterSelect.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { ResourcePagination } from "../components/ResourcePagination.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS, notificationPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { NotificationStatusChip, settledPercent } from "./NotificationStatusChip.js";

const PAGE_SIZES = [10, 20, 50];

/** Histórico: every notification, newest first, searchable in title and text, by status, a page at a time. */
export function HistoryPage() {
  const { t } = useTranslation();
  const { notifications: api, timeZone } = useDashboardServices();
  // The filter lives in the address: a search can be shared and survives going back from a notification.
  const [params, setParams] = useSearchParams();
  const query = params.get("busca") ?? "";
  const status = (NOTIFICATION_STATUSES as readonly string[]).includes(params.get("status") ?? "") ? (params.get("status") as NotificationStatus) : undefined;
  const page = Math.max(1, Number(params.get("pagina")) || 1);
  const pageSize = PAGE_SIZES.includes(Number(params.get("porPagina"))) ? Number(params.get("porPagina")) : 20;
  const [typed, setTyped] = useState(query);

  const setFilter = useCallback(
    (changes: Record<string, string | undefined>) => {
      setParams((previous) => {
        const next = new URLSearchParams(previous);
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === "") next.delete(key);
          else next.set(key, value);
        }
        return next;
      });
    },
    [setParams],
  );

  // Search as the operator types, once they pause.
  useEffect(() => {
    if (typed === query) return;
    const timer = setTimeout(() => setFilter({ busca: typed.trim(), pagina: undefined }), 300);
    return () => clearTimeout(timer);
  }, [typed, query, setFilter]);

  const notifications = useResource(useCallback(() => api.listNotifications({ query, status, page, pageSize }), [api, query, status, page, pageSize]));
  const filtered = query !== "" || status !== undefined;
  const whenText = (notification: Notification) =>
    notification.status === "scheduled" && notification.sendAt
      ? t("notifications.history.scheduledFor", { when: formatDateTime(notification.sendAt, timeZone) })
      : formatDateTime(notification.createdAt, timeZone);
  const deliveryText = (notification: Notification) =>
    t("notifications.history.accepted", { accepted: formatNumber(notification.counts.accepted), queued: formatNumber(notification.counts.queued) });

  return (
    <ResourceListPage
      title={t("notifications.history.title")}
      subtitle={t("notifications.history.subtitle")}
      action={
        <Button component={RouterLink} to={DASHBOARD_PATHS.compose} variant="contained">
          {t("notifications.history.compose")}
        </Button>
      }
      above={
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ mb: 2 }}>
          <TextField
            type="search"
            label={t("notifications.history.search")}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            fullWidth
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search /></InputAdornment> } }}
          />
          <ListFilterSelect
            size="medium"
            label={t("notifications.history.statusFilter")}
            anyLabel={t("notifications.history.anyStatus")}
            value={status ?? ""}
            onChange={(value) => setFilter({ status: value, pagina: undefined })}
            options={NOTIFICATION_STATUSES.map((s) => ({ value: s, label: t(`notifications.status.${s}`) }))}
            sx={{ minWidth: { sm: 220 } }}
          />
        </Stack>
      }
      list={notifications}
      isEmpty={(data) => data.total === 0}
      empty={
        <EmptyState
          icon={<HistoryOutlined />}
          title={filtered ? t("notifications.history.noMatchTitle") : t("notifications.history.emptyTitle")}
          text={filtered ? t("notifications.history.noMatchText") : t("notifications.history.emptyText")}
        />
      }
    >
      {(data) => (
        <>
          <ResourceTable
            container
            hover
            rows={data.notifications}
            label={t("notifications.history.title")}
            testId="history-table"
            rowKey={(notification) => notification.id}
            rowTestId="history-row"
            columns={[
              {
                header: t("notifications.history.columns.title"),
                sx: { maxWidth: 360 },
                cell: (notification) => (
                  <>
                    <Link component={RouterLink} to={notificationPagePath(notification.id)} sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>
                      {notification.title}
                    </Link>
                    {notification.body && (
                      <Typography variant="body2" color="text.secondary" sx={{ display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", overflow: "hidden", overflowWrap: "anywhere" }}>
                        {notification.body}
                      </Typography>
                    )}
                    {/* Phones: the status under the title, its column hidden. */}
                    <Box sx={{ display: { sm: "none" }, mt: 0.5 }}>
                      <NotificationStatusChip status={notification.status} />
                    </Box>
                    {/* Below tablets the date and delivery columns are hidden: the same facts, in a line. */}
                    <Typography variant="body2" color="text.secondary" data-testid="history-row-summary" sx={{ display: { md: "none" }, mt: 0.5 }}>
                      {whenText(notification)}
                      {notification.status !== "scheduled" && ` · ${deliveryText(notification)}`}
                    </Typography>
                  </>
                ),
              },
              { header: t("notifications.history.columns.status"), from: "sm", cell: (notification) => <NotificationStatusChip status={notification.status} /> },
              { header: t("notifications.history.columns.when"), from: "md", sx: { whiteSpace: "nowrap" }, cell: whenText },
              {
                header: t("notifications.history.columns.progress"),
                from: "md",
                sx: { minWidth: 180 },
                cell: (notification) =>
                  notification.status === "scheduled" || notification.status === "no_recipients" ? (
                    <Typography variant="body2" color="text.secondary">
                      {notification.status === "scheduled" ? t("notifications.history.notYet") : t("notifications.history.noRecipients")}
                    </Typography>
                  ) : (
                    <Box>
                      <LinearProgress variant="determinate" value={settledPercent(notification.counts)} sx={{ height: 6, borderRadius: 3 }} aria-hidden />
                      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                        {deliveryText(notification)}
                      </Typography>
                    </Box>
                  ),
              },
            ]}
          />
          <ResourcePagination
            count={data.total}
            page={page}
            pageSize={pageSize}
            pageSizes={PAGE_SIZES}
            onPage={(next) => setFilter({ pagina: next === 1 ? undefined : String(next) })}
            onPageSize={(size) => setFilter({ porPagina: String(size), pagina: undefined })}
            perPageLabel={t("notifications.history.rowsPerPage")}
            rangeKey="notifications.history.displayedRows"
            buttonLabel={(type) => t(`notifications.history.pageLabels.${type}`)}
          />
        </>
      )}
    </ResourceListPage>
  );
}
