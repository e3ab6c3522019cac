import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import Typography from "@mui/material/Typography";
import SendOutlined from "@mui/icons-material/SendOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { ListSkeleton } from "../components/ListSkeleton.js";
import { LoadError } from "../components/LoadError.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS, notificationPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { NotificationStatusChip } from "./NotificationStatusChip.js";

/** Visão geral's first row: how many subscribers there are now, and the latest notifications with their results. */
export function OverviewSummary({ site }: { site?: string | undefined }) {
  const { t } = useTranslation();
  const { notifications: api, timeZone } = useDashboardServices();
  const { resource, reload } = useResource(useCallback(() => api.getOverview(site), [api, site]));

  if (resource.status === "loading") return <Card variant="outlined" sx={{ mb: 3 }}><ListSkeleton rows={2} /></Card>;
  if (resource.status === "error") return <Card variant="outlined" sx={{ mb: 3 }}><LoadError error={resource.error} onRetry={reload} /></Card>;
  const { subscribers, recentSends } = resource.data;
  return (
    <Box sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", md: "260px minmax(0, 1fr)" }, mb: 3, alignItems: "start" }}>
      <Card variant="outlined">
        <CardContent>
          <Typography color="text.secondary">{t("notifications.overview.subscribers")}</Typography>
          <Typography variant="h3" component="p" sx={{ fontWeight: 600, fontVariantNumeric: "tabular-nums" }} data-testid="subscribers-total">
            {formatNumber(subscribers.total)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t("notifications.overview.subscribersHint")}
          </Typography>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent sx={{ pb: 1 }}>
          <Typography variant="h6" component="h2">
            {t("notifications.overview.recent")}
          </Typography>
        </CardContent>
        {recentSends.length === 0 ? (
          <EmptyState
            icon={<SendOutlined />}
            title={t("notifications.overview.emptyTitle")}
            text={t("notifications.overview.emptyText")}
            action={<Button component={RouterLink} to={DASHBOARD_PATHS.compose} variant="contained">{t("notifications.history.compose")}</Button>}
          />
        ) : (
          <List dense data-testid="recent-sends">
            {recentSends.map((notification) => (
              <ListItem key={notification.id} divider sx={{ gap: 2, flexWrap: "wrap" }}>
                <Box sx={{ flexGrow: 1, minWidth: 0 }}>
                  <Link component={RouterLink} to={notificationPagePath(notification.id)} sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>
                    {notification.title}
                  </Link>
                  <Typography variant="body2" color="text.secondary">
                    {notification.status === "scheduled" && notification.sendAt
                      ? t("notifications.history.scheduledFor", { when: formatDateTime(notification.sendAt, timeZone) })
                      : notification.status === "no_recipients"
                        ? t("notifications.overview.noRecipients", { when: formatDateTime(notification.createdAt, timeZone) })
                        : t("notifications.overview.result", { when: formatDateTime(notification.createdAt, timeZone), accepted: formatNumber(notification.counts.accepted), queued: formatNumber(notification.counts.queued) })}
                  </Typography>
                </Box>
                <NotificationStatusChip status={notification.status} />
              </ListItem>
            ))}
          </List>
        )}
        <Box sx={{ px: 2, pb: 1.5 }}>
          <Button component={RouterLink} to={DASHBOARD_PATHS.history} size="small">
            {t("notifications.overview.allSends")}
          </Button>
        </Box>
      </Card>
    </Box>
  );
}
