import { useCallback, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import CancelScheduleSend from "@mui/icons-material/CancelScheduleSend";
import Link from "@mui/material/Link";
import type { Notification } from "../../../shared/api/notifications.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { useNotice } from "../components/useNotice.js";
import { RetriesCard } from "./RetriesCard.js";
import { LocalTimeCard } from "./LocalTimeCard.js";
import { NoticeActions } from "./NoticeActions.js";
import { ttlText } from "./ttl-text.js";
import { ListSkeleton } from "../components/ListSkeleton.js";
import { LoadError } from "../components/LoadError.js";
import { PageHeading } from "../components/PageHeading.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { NotificationStatusChip, settledPercent } from "./NotificationStatusChip.js";
import { useNotificationProgress } from "./useNotificationProgress.js";
import { NotificationResults } from "../results/NotificationResults.js";
import { RecipientsCard } from "./RecipientsCard.js";
import { SendActions } from "./SendActions.js";
import { fullNotificationRows } from "./full-notification-rows.js";

const COUNTERS = ["queued", "accepted", "retrying", "failed", "removed", "limited", "asleep"] as const;
/** gates: the engagement gate's counters, labelled from the delivery rules' namespace. */
const counterLabel = (counter: (typeof COUNTERS)[number]) => (counter === "limited" || counter === "asleep" ? `delivery-rules.counts.${counter}` : `notifications.counts.${counter}`);
const CANCELLABLE = new Set(["scheduled", "queued", "sending"]);

/** Envio: one notification, its live progress (server events, no reloads), its results, and cancel. */
export function NotificationPage() {
  const { t } = useTranslation();
  const { id = "" } = useParams();
  const { notifications: api } = useDashboardServices();
  const { progress, replace, retry } = useNotificationProgress(api, id);
  const [confirming, setConfirming] = useState(false);
  const [noticeElement, showNotice] = useNotice();

  if (progress.status === "loading") {
    return (
      <>
        <PageHeading title={t("notifications.send.title")} />
        <Card variant="outlined">
          <ListSkeleton rows={2} />
        </Card>
      </>
    );
  }
  if (progress.status === "error") {
    return (
      <>
        <PageHeading title={t("notifications.send.title")} />
        <Card variant="outlined">
          <LoadError error={progress.error} onRetry={retry} />
        </Card>
      </>
    );
  }
  const notification = progress.notification;
  const cancelButton = CANCELLABLE.has(notification.status) ? (
    <Button variant="outlined" color="error" startIcon={<CancelScheduleSend />} onClick={() => setConfirming(true)}>
      {notification.status === "scheduled" ? t("notifications.send.cancelScheduled") : t("notifications.send.cancelRunning")}
    </Button>
  ) : undefined;

  return (
    <>
      <PageHeading title={notification.title} subtitle={t("notifications.send.subtitle", { id: notification.id })} action={<SendActions notification={notification}>{cancelButton}</SendActions>} />
      <Stack spacing={3}>
        <ProgressCard notification={notification} live={progress.live} />
        <LocalTimeCard notification={notification} />
        {notification.status !== "scheduled" && <RetriesCard notification={notification} />}
        {notification.status !== "scheduled" && <NotificationResults id={notification.id} counts={notification.counts} actions={notification.actions} />}
        {notification.status !== "scheduled" && <RecipientsCard key={notification.status} notificationId={notification.id} />}
        <DetailsCard
          notification={notification}
          onNoticeChange={(changed) => {
            replace(changed);
            showNotice({ text: t(`notifications.notice.changed.${changed.notice}`), severity: "success" });
          }}
        />
      </Stack>
      {noticeElement}
      <ConfirmDialog
        open={confirming}
        // The same verb on the page's button, the question and the confirming button; the other
        // button says what staying means, so two "Cancelar" never sit side by side.
        title={notification.status === "scheduled" ? t("notifications.send.confirmTitleScheduled") : t("notifications.send.confirmTitleRunning")}
        text={notification.status === "scheduled" ? t("notifications.send.confirmScheduled", { title: notification.title }) : t("notifications.send.confirmRunning", { title: notification.title })}
        confirmLabel={notification.status === "scheduled" ? t("notifications.send.cancelScheduled") : t("notifications.send.cancelRunning")}
        cancelLabel={notification.status === "scheduled" ? t("notifications.send.keepScheduled") : t("notifications.send.keepRunning")}
        destructive
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          replace(await api.cancelNotification(notification.id));
        }}
      />
    </>
  );
}

function ProgressCard({ notification, live }: { notification: Notification; live: boolean }) {
  const { t } = useTranslation();
  const { timeZone } = useDashboardServices();
  const percent = settledPercent(notification.counts);
  return (
    <Card variant="outlined">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: "center", mb: 2, flexWrap: "wrap", rowGap: 1 }}>
          <NotificationStatusChip status={notification.status} size="medium" />
          <Typography color="text.secondary" data-testid="send-when">
            {notification.status === "scheduled" && notification.sendAt
              ? t("notifications.send.scheduledFor", { when: formatDateTime(notification.sendAt, timeZone) })
              : notification.finishedAt
                ? t("notifications.send.finishedAt", { when: formatDateTime(notification.finishedAt, timeZone) })
                : t("notifications.send.createdAt", { when: formatDateTime(notification.createdAt, timeZone) })}
          </Typography>
          {live && (
            <Typography variant="body2" color="primary" sx={{ ml: "auto" }} aria-live="polite">
              {t("notifications.send.live")}
            </Typography>
          )}
        </Stack>
        {notification.status === "scheduled" ? (
          <Alert severity="info">{t("notifications.send.scheduledHint")}</Alert>
        ) : notification.status === "no_recipients" ? (
          // Nobody to deliver to: no progress to show (a full bar at "100%" would read as success).
          <Alert severity="warning" data-testid="send-no-recipients">
            {t("notifications.send.noRecipients")}
          </Alert>
        ) : (
          <>
            <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
              <LinearProgress
                variant="determinate"
                value={percent}
                aria-label={t("notifications.send.progressLabel")}
                data-testid="send-progress"
                sx={{ flexGrow: 1, height: 10, borderRadius: 5 }}
                color={notification.status === "cancelled" || notification.status === "failed" ? "inherit" : "primary"}
              />
              <Typography sx={{ minWidth: 48, textAlign: "right", fontVariantNumeric: "tabular-nums" }} data-testid="send-percent">
                {t("notifications.send.percent", { value: percent })}
              </Typography>
            </Stack>
          </>
        )}
        <Box
          component="dl"
          sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(5, 1fr)" }, gap: 2, mt: 3, mb: 0 }}
        >
          {COUNTERS.map((counter) => (
            <Box key={counter} sx={{ p: 1.5, borderRadius: 2, bgcolor: "action.hover" }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {t(counterLabel(counter))}
              </Typography>
              <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 600, fontVariantNumeric: "tabular-nums" }} data-testid={`count-${counter}`}>
                {formatNumber(notification.counts[counter])}
              </Typography>
            </Box>
          ))}
        </Box>
      </CardContent>
    </Card>
  );
}

/** "Obras e Eventos": names as a pt-BR list. */
function listOf(names: readonly string[]): string {
  return new Intl.ListFormat("pt-BR", { type: "conjunction" }).format(names);
}

/**
 * Who the send went to: everyone, the test browser, or the channels by name ("Obras e Eventos"),
 * and the sites it was narrowed to by origin, as the Sites page shows them (Sino's own by its
 * public origin).
 */
function useAudienceText(audience: Notification["audience"]): string {
  const { t } = useTranslation();
  const { audience: audienceApi, sites: sitesApi } = useDashboardServices();
  const slugs = audience.type === "channels" ? audience.channels : [];
  const siteIds = audience.type === "endpoint" ? [] : (audience.sites ?? []);
  // Channel names and site origins, when their lists load; the slugs and site numbers meanwhile (or if they cannot load).
  const { resource: channels } = useResource(useCallback(() => (slugs.length === 0 ? Promise.resolve([]) : audienceApi.listChannels()), [audienceApi, slugs.length]));
  const { resource: sites } = useResource(useCallback(() => (siteIds.length === 0 ? Promise.resolve([]) : sitesApi.listSites().then(({ sites }) => sites)), [sitesApi, siteIds.length]));
  if (audience.type === "endpoint") return t("notifications.audience.endpoint");
  const nameOf = (slug: string) => (channels.status === "ready" ? channels.data.find((channel) => channel.slug === slug)?.name : undefined) ?? slug;
  // A site deleted since the send is no longer listed: its number stands in.
  const originOf = (id: string) => (sites.status === "ready" ? sites.data.find((site) => site.id === id)?.origin : undefined) ?? t("notifications.audience.siteNumber", { id });
  const channelNames = audience.type === "channels" ? listOf(audience.channels.map(nameOf)) : "";
  if (audience.type === "segment") return segmentAudienceText(t, audience, siteIds.length === 0 ? null : listOf(siteIds.map(originOf)));
  if (siteIds.length === 0) {
    return audience.type === "all" ? t("notifications.audience.all") : t("notifications.audience.channels", { count: slugs.length, channels: channelNames });
  }
  const siteNames = listOf(siteIds.map(originOf));
  if (audience.type === "all") return t("notifications.audience.allOnSites", { count: siteIds.length, sites: siteNames });
  const channelList = t("notifications.audience.channelList", { count: slugs.length, channels: channelNames });
  return t("notifications.audience.channelsOnSites", { count: siteIds.length, channels: channelList, sites: siteNames });
}

/**
 * "O segmento “Premium” (plano = premium e cidade = Campinas)", "Quem atende a tem vip", with
 * "nos sites …" when narrowed; a saved segment's scheduled send has no expression until it starts.
 */
function segmentAudienceText(t: ReturnType<typeof useTranslation>["t"], audience: Extract<Notification["audience"], { type: "segment" }>, sites: string | null): string {
  const who =
    audience.name !== null
      ? audience.expression !== null
        ? t("segments.notification.saved", { name: audience.name, expression: audience.expression })
        : t("segments.notification.savedPending", { name: audience.name })
      : t("segments.notification.written", { expression: audience.expression ?? "" });
  return sites === null ? who : t("segments.notification.onSites", { who, count: audience.sites?.length ?? 0, sites });
}

/** An icon or image that was set: a small preview (it may not load: the link still says where it is) and its address. */
function PictureValue({ url, alt, size }: { url: string | null; alt: string; size: { width: number; height: number } }) {
  const { t } = useTranslation();
  if (url === null) return <>{t("notifications.details.none")}</>;
  return (
    <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: { sm: "center" } }}>
      <Box
        component="img"
        src={url}
        alt={alt}
        loading="lazy"
        referrerPolicy="no-referrer"
        sx={{ ...size, objectFit: "cover", borderRadius: 1, border: 1, borderColor: "divider", bgcolor: "action.hover", flexShrink: 0 }}
      />
      <Link href={url} target="_blank" rel="noopener noreferrer" sx={{ overflowWrap: "anywhere" }}>
        {url}
      </Link>
    </Stack>
  );
}

function DetailsCard({ notification, onNoticeChange }: { notification: Notification; onNoticeChange: (changed: Notification) => void }) {
  const { t } = useTranslation();
  const audience = useAudienceText(notification.audience);
  const rows: [string, ReactNode, string?][] = [
    [t("notifications.details.body"), notification.body ?? t("notifications.details.none")],
    [t("notifications.details.link"), notification.url ?? t("notifications.details.none")],
    [t("notifications.details.icon"), <PictureValue url={notification.icon} alt={t("notifications.details.iconAlt")} size={{ width: 48, height: 48 }} />, "icon"],
    [t("notifications.details.image"), <PictureValue url={notification.image} alt={t("notifications.details.imageAlt")} size={{ width: 160, height: 80 }} />, "image"],
    [t("notifications.details.audience"), audience],
    [t("notifications.details.urgency"), t(`dashboard.compose.urgency.${notification.urgency}`)],
    [t("notifications.details.ttl"), ttlText(t, notification.ttl), "ttl"],
    ...fullNotificationRows(t, notification, (url) => <PictureValue url={url} alt={t("notifications.full.badgeAlt")} size={{ width: 32, height: 32 }} />),
    [t("notifications.details.notice"), <NoticeActions notification={notification} onChange={onNoticeChange} />, "notice"],
  ];
  return (
    <Card variant="outlined">
      <CardContent sx={{ p: { xs: 2, sm: 3 } }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
          {t("notifications.details.title")}
        </Typography>
        <Box component="dl" sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "160px 1fr" }, columnGap: 2, rowGap: 1, m: 0 }}>
          {rows.map(([label, value, testId]) => (
            <Box key={label} sx={{ display: "contents" }}>
              <Typography component="dt" color="text.secondary">
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, overflowWrap: "anywhere" }} {...(testId === undefined ? {} : { "data-testid": `detail-${testId}` })}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        <Button component={RouterLink} to={DASHBOARD_PATHS.history} sx={{ mt: 2 }}>
          {t("notifications.send.backToHistory")}
        </Button>
      </CardContent>
    </Card>
  );
}
