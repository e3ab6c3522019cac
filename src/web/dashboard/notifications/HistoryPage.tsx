import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useSearchParams } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import InputAdornment from "@mui/material/InputAdornment";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import Search from "@mui/icons-material/Search";
import { NOTIFICATION_STATUSES, type Notification, type NotificationStatus } from "../../../shared/api/notifications.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceView } from "../components/ResourceView.js";
import { PageHeading } from "../components/PageHeading.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS, notificationPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { NotificationStatusChip, settledPercent } from "./NotificationStatusChip.js";

const PAGE_SIZES = [10, 20, 50];
const wide = { display: { xs: "none", md: "table-cell" } } as const;
const fromSm = { display: { xs: "none", sm: "table-cell" } } as const;

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

  const { resource, reload } = useResource(useCallback(() => api.listNotifications({ query, status, page, pageSize }), [api, query, status, page, pageSize]));
  const filtered = query !== "" || status !== undefined;
  const whenText = (notification: Notification) =>
    notification.status === "scheduled" && notification.sendAt
      ? t("notifications.history.scheduledFor", { when: formatDateTime(notification.sendAt, timeZone) })
      : formatDateTime(notification.createdAt, timeZone);
  const deliveryText = (notification: Notification) =>
    t("notifications.history.accepted", { accepted: formatNumber(notification.counts.accepted), queued: formatNumber(notification.counts.queued) });

  return (
    <>
      <PageHeading
        title={t("notifications.history.title")}
        subtitle={t("notifications.history.subtitle")}
        action={
          <Button component={RouterLink} to={DASHBOARD_PATHS.compose} variant="contained">
            {t("notifications.history.compose")}
          </Button>
        }
      />
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ mb: 2 }}>
        <TextField
          type="search"
          label={t("notifications.history.search")}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          fullWidth
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search /></InputAdornment> } }}
        />
        <TextField
          select
          label={t("notifications.history.statusFilter")}
          value={status ?? ""}
          onChange={(event) => setFilter({ status: event.target.value, pagina: undefined })}
          sx={{ minWidth: { sm: 220 } }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">{t("notifications.history.anyStatus")}</MenuItem>
          {NOTIFICATION_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`notifications.status.${s}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <Card variant="outlined">
        <ResourceView
          resource={resource}
          onRetry={reload}
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
              <TableContainer>
                <Table aria-label={t("notifications.history.title")} data-testid="history-table">
                  <TableHead>
                    <TableRow>
                      <TableCell>{t("notifications.history.columns.title")}</TableCell>
                      <TableCell sx={fromSm}>{t("notifications.history.columns.status")}</TableCell>
                      <TableCell sx={wide}>{t("notifications.history.columns.when")}</TableCell>
                      <TableCell sx={wide}>{t("notifications.history.columns.progress")}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.notifications.map((notification) => (
                      <TableRow key={notification.id} hover data-testid="history-row">
                        <TableCell sx={{ maxWidth: 360 }}>
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
                        </TableCell>
                        <TableCell sx={fromSm}>
                          <NotificationStatusChip status={notification.status} />
                        </TableCell>
                        <TableCell sx={{ ...wide, whiteSpace: "nowrap" }}>
                          {whenText(notification)}
                        </TableCell>
                        <TableCell sx={{ ...wide, minWidth: 180 }}>
                          {notification.status === "scheduled" || notification.status === "no_recipients" ? (
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
                          )}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              <TablePagination
                component="div"
                count={data.total}
                page={page - 1}
                rowsPerPage={pageSize}
                rowsPerPageOptions={PAGE_SIZES}
                onPageChange={(_event, next) => setFilter({ pagina: next === 0 ? undefined : String(next + 1) })}
                onRowsPerPageChange={(event) => setFilter({ porPagina: event.target.value, pagina: undefined })}
                labelRowsPerPage={t("notifications.history.rowsPerPage")}
                labelDisplayedRows={({ from, to, count }) => t("notifications.history.displayedRows", { from: formatNumber(from), to: formatNumber(to), count: formatNumber(count) })}
                getItemAriaLabel={(type) => t(`notifications.history.pageLabels.${type}`)}
              />
            </>
          )}
        </ResourceView>
      </Card>
    </>
  );
}
