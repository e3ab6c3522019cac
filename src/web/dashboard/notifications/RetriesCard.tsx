import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Notification, NotificationRetries } from "../../../shared/api/notifications.js";
import { useNow } from "../../hooks/useNow.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource, type Resource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { formatUntil, retryReasonText, retryStatusText } from "./retry-text.js";

/**
 * Novas tentativas: why pushes of the send were not taken the first time, by push service (host,
 * reason, HTTP status or no answer), how many retries each caused and when the next attempt is.
 * Read again whenever the number waiting or the status changes (the progress stream says so);
 * shown only once something was retried.
 */
export function RetriesCard({ notification }: { notification: Notification }) {
  const { notifications: api } = useDashboardServices();
  const { id, status } = notification;
  const { retrying } = notification.counts;
  // While pushes wait, read again every 15 s too: a retry answered "later" again moves the next
  // attempt without changing the number waiting.
  const now = useNow(15_000);
  const refresh = retrying > 0 ? now : 0;
  const { resource } = useResource(
    // `retrying`, `status` and `refresh` are read for the reload they cause, not inside.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    useCallback(() => api.getRetries(id), [api, id, retrying, status, refresh]),
  );
  if (resource.status === "loading" && retrying === 0) return null;
  if (resource.status === "ready" && resource.data.causes.length === 0) return null;
  return <RetriesView resource={resource} />;
}

function RetriesView({ resource }: { resource: Resource<NotificationRetries> }) {
  const { t } = useTranslation();
  const { timeZone } = useDashboardServices();
  const now = useNow(5_000);
  return (
    <Card variant="outlined" data-testid="send-retries">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t("notifications.retries.title")}
        </Typography>
        {resource.status === "error" && <Alert severity="error">{t("notifications.retries.loadError")}</Alert>}
        {resource.status === "ready" && (
          <>
            <Typography color="text.secondary" sx={{ mb: 1 }}>
              {t("notifications.retries.intro")}
            </Typography>
            <Typography sx={{ fontWeight: 600 }} data-testid="retries-waiting">
              {t("notifications.retries.waiting", { count: resource.data.waiting })}
            </Typography>
            {resource.data.nextAttemptAt !== null && (
              <Typography sx={{ mb: 2 }} data-testid="retries-next">
                {Date.parse(resource.data.nextAttemptAt) <= now
                  ? t("notifications.retries.nextAttemptDue", { when: formatDateTime(resource.data.nextAttemptAt, timeZone) })
                  : t("notifications.retries.nextAttempt", { when: formatDateTime(resource.data.nextAttemptAt, timeZone), relative: formatUntil(resource.data.nextAttemptAt, now) })}
              </Typography>
            )}
            {/* Focusable: on a phone the table may scroll sideways, and a keyboard must reach that too. */}
            <TableContainer tabIndex={0} role="region" aria-label={t("notifications.retries.tableLabel")}>
              <Table size="small" aria-label={t("notifications.retries.tableLabel")}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t("notifications.retries.columns.service")}</TableCell>
                    <TableCell>{t("notifications.retries.columns.cause")}</TableCell>
                    <TableCell align="right">{t("notifications.retries.columns.pushes")}</TableCell>
                    <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("notifications.retries.columns.last")}</TableCell>
                    <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("notifications.retries.columns.next")}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {resource.data.causes.map((cause) => (
                    <TableRow key={`${cause.host} ${cause.reason} ${cause.status ?? 0}`} data-testid="retry-cause">
                      <TableCell sx={{ overflowWrap: "anywhere" }}>{cause.host}</TableCell>
                      <TableCell>
                        {retryReasonText(t, cause)} ({retryStatusText(t, cause)})
                        {cause.detail !== null && (
                          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
                            {t("notifications.retries.detail", { detail: cause.detail })}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
                        {formatNumber(cause.pushes)}
                      </TableCell>
                      <TableCell sx={{ display: { xs: "none", sm: "table-cell" }, whiteSpace: "nowrap" }}>{formatDateTime(cause.lastAt, timeZone)}</TableCell>
                      <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{formatDateTime(cause.nextAttemptAt, timeZone)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </>
        )}
      </CardContent>
    </Card>
  );
}
