import { useCallback, useState } from "react";
import type { TFunction } from "i18next";
import { ActivityFilter } from "./ActivityFilter.js";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import GroupsOutlined from "@mui/icons-material/GroupsOutlined";
import KeyOffOutlined from "@mui/icons-material/KeyOffOutlined";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { Channel } from "../../../shared/api/channels.js";
import type { Site } from "../../../shared/api/sites.js";
import type { StatsResponse } from "../../../shared/api/stats.js";
import type { Subscriber, SubscribersResponse } from "../../../shared/api/subscribers.js";
import { EmptyState } from "../components/EmptyState.js";
import { ListFilterSelect } from "../components/ListFilterSelect.js";
import { ResourceConfirm } from "../components/ResourceConfirm.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { ResourcePagination } from "../components/ResourcePagination.js";
import { RowIconAction } from "../components/ResourceRowActions.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { useNotice } from "../components/useNotice.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { personPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { TagChips } from "../people/TagChips.js";

const PAGE_SIZES = [25, 50, 100];

interface Filters {
  channel: string;
  /** A site id, or "" for every site. */
  site: string;
  browser: string;
  /** The start of a person's user id, or "". */
  user: string;
  /** "active", "sleeping" or "" for both. */
  activity: string;
  page: number;
  pageSize: number;
}

/** Assinantes (admin): how many, in which channels and browsers; remove one; export the counts. */
export function SubscribersPage() {
  const { t } = useTranslation();
  const { audience: api, sites: sitesApi, timeZone } = useDashboardServices();
  const [filters, setFilters] = useState<Filters>({ channel: "", site: "", browser: "", user: "", activity: "", page: 1, pageSize: 50 });
  const [removing, setRemoving] = useState<Subscriber | null>(null);
  const [noticeElement, setNotice] = useNotice();

  const list = useResource(
    useCallback(
      () =>
        api.listSubscribers({
          channel: filters.channel || undefined,
          site: filters.site || undefined,
          browser: filters.browser || undefined,
          user: filters.user || undefined,
          activity: filters.activity || undefined,
          page: filters.page,
          pageSize: filters.pageSize,
        }),
      [api, filters],
    ),
  );
  // The filters' choices and the summary: channels (names for slugs) and the counts by browser.
  const facets = useResource(
    useCallback(async (): Promise<{ channels: Channel[]; stats: StatsResponse; sites: Site[] }> => {
      const [channels, stats, sites] = await Promise.all([api.listChannels(), api.getStats(1), sitesApi.listSites()]);
      return { channels, stats, sites: sites.sites };
    }, [api, sitesApi]),
  );
  const sites = facets.resource.status === "ready" ? facets.resource.data.sites : [];
  const channels = facets.resource.status === "ready" ? facets.resource.data.channels : [];
  const stats = facets.resource.status === "ready" ? facets.resource.data.stats : null;
  const nameOf = (slug: string) => channels.find((c) => c.slug === slug)?.name ?? slug;
  const filtered = filters.channel !== "" || filters.site !== "" || filters.browser !== "" || filters.user !== "" || filters.activity !== "";

  const change = (next: Partial<Filters>) => setFilters((current) => ({ ...current, page: 1, ...next }));

  return (
    <>
      <ResourceListPage
        title={t("subscribers.title")}
        subtitle={t("subscribers.subtitle")}
        action={
          <Button variant="outlined" startIcon={<FileDownloadOutlined />} href={API_ROUTES.subscribersCsv} download>
            {t("subscribers.exportCsv")}
          </Button>
        }
        above={stats && <Summary stats={stats} />}
        filters={
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ p: 2 }}>
            <ListFilterSelect
              label={t("subscribers.filters.channel")}
              anyLabel={t("subscribers.filters.any")}
              value={filters.channel}
              onChange={(channel) => change({ channel })}
              options={channels.map((c) => ({ value: c.slug, label: c.name }))}
            />
            {sites.length > 1 && (
              <ListFilterSelect
                label={t("sites.filter")}
                anyLabel={t("subscribers.filters.any")}
                value={filters.site}
                onChange={(site) => change({ site })}
                options={sites.map((site) => ({ value: site.id, label: site.origin }))}
                testId="site-filter"
              />
            )}
            <ListFilterSelect
              label={t("subscribers.filters.browser")}
              anyLabel={t("subscribers.filters.any")}
              value={filters.browser}
              onChange={(browser) => change({ browser })}
              options={(stats?.byBrowser ?? []).map((b) => ({ value: b.browser, label: b.browser }))}
            />
            <ActivityFilter value={filters.activity} onChange={(activity) => change({ activity })} />
            <TextField
              size="small"
              type="search"
              label={t("subscribers.filters.user")}
              value={filters.user}
              onChange={(e) => change({ user: e.target.value })}
              sx={{ minWidth: 200 }}
              slotProps={{ htmlInput: { maxLength: 128, "data-testid": "subscribers-user-search" } }}
            />
          </Stack>
        }
        list={list}
        isEmpty={(data) => data.subscribers.length === 0}
        empty={<EmptyState icon={<GroupsOutlined />} title={t("subscribers.emptyTitle")} text={filtered ? t("subscribers.emptyFilteredText") : t("subscribers.emptyText")} />}
      >
        {(data) => (
          <>
            <SubscribersTable data={data} timeZone={timeZone} nameOf={nameOf} onRemove={setRemoving} />
            <ResourcePagination
              count={data.total}
              page={filters.page}
              pageSize={filters.pageSize}
              pageSizes={PAGE_SIZES}
              onPage={(page) => setFilters((f) => ({ ...f, page }))}
              onPageSize={(pageSize) => change({ pageSize })}
              perPageLabel={t("subscribers.perPage")}
              rangeKey="subscribers.range"
            />
          </>
        )}
      </ResourceListPage>
      <ResourceConfirm
        target={removing}
        title={() => t("subscribers.removeTitle")}
        text={() => t("subscribers.removeText")}
        confirmLabel={t("subscribers.remove")}
        destructive
        onClose={() => setRemoving(null)}
        onConfirm={async (removed) => {
          await api.removeSubscriber(removed.id);
          list.update((data) => ({ subscribers: data.subscribers.filter((s) => s.id !== removed.id), total: data.total - 1 }));
          setNotice({ severity: "success", text: t("subscribers.removed") });
        }}
      />
      {noticeElement}
    </>
  );
}

function Summary({ stats }: { stats: StatsResponse }) {
  const { t } = useTranslation();
  const total = stats.byBrowser.reduce((sum, b) => sum + b.subscribers, 0);
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="subscribers-summary">
      <Typography variant="h6" component="p">
        {t("subscribers.total", { count: total, formatted: formatNumber(total) })}
      </Typography>
      {stats.byChannel.length > 0 && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap", alignItems: "center" }}>
          <Typography variant="body2" color="text.secondary">
            {t("subscribers.byChannel")}:
          </Typography>
          {stats.byChannel.map((c) => (
            <Chip key={c.slug} size="small" label={`${c.name}: ${formatNumber(c.subscribers)}`} />
          ))}
        </Stack>
      )}
      {stats.byBrowser.length > 0 && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap", alignItems: "center" }}>
          <Typography variant="body2" color="text.secondary">
            {t("subscribers.byBrowser")}:
          </Typography>
          {stats.byBrowser.map((b) => (
            <Chip key={b.browser} size="small" variant="outlined" label={`${b.browser}: ${formatNumber(b.subscribers)}`} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

interface TableProps {
  data: SubscribersResponse;
  timeZone: string;
  nameOf: (slug: string) => string;
  onRemove: (subscriber: Subscriber) => void;
}

const browserOf = (t: TFunction, s: Subscriber) => [s.browser ?? t("subscribers.unknownBrowser"), s.os].filter(Boolean).join(" · ");

function SubscribersTable({ data, timeZone, nameOf, onRemove }: TableProps) {
  const { t } = useTranslation();
  return (
    <ResourceTable
      rows={data.subscribers}
      label={t("subscribers.title")}
      testId="subscribers-table"
      rowKey={(s) => s.id}
      rowTestId="subscriber-row"
      rowData={(s) => ({ "data-id": s.id })}
      columns={[
        {
          header: t("subscribers.columns.browser"),
          cell: (s) => (
            <>
              {browserOf(t, s)}
              {s.vapidMismatchAt !== null && (
                // describeChild: the hint describes the chip; its name stays the short label.
                // Focusable so keyboard users can open the hint too.
                <Tooltip title={t("subscribers.vapidMismatchHint")} describeChild>
                  <Chip size="small" color="error" icon={<KeyOffOutlined />} label={t("subscribers.vapidMismatch")} data-testid="vapid-mismatch" tabIndex={0} sx={{ ml: 1 }} />
                </Tooltip>
              )}
            </>
          ),
        },
        {
          header: t("subscribers.columns.user"),
          sx: { overflowWrap: "anywhere" },
          cell: (s) =>
            s.userId === null ? (
              <Typography variant="body2" color="text.secondary">
                {t("people.recipients.anonymous")}
              </Typography>
            ) : (
              <Link component={RouterLink} to={personPagePath(s.userId)}>
                {s.userId}
              </Link>
            ),
        },
        {
          header: t("subscribers.columns.channels"),
          cell: (s) =>
            s.channels.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {t("subscribers.noChannels")}
              </Typography>
            ) : (
              <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: "wrap" }}>
                {s.channels.map((slug) => (
                  <Chip key={slug} size="small" label={nameOf(slug)} />
                ))}
              </Stack>
            ),
        },
        {
          header: t("subscribers.columns.tags"),
          from: "md",
          cell: (s) => (
            <Stack spacing={0.5}>
              <TagChips tags={s.tags.trusted} testId="subscriber-trusted-tags" />
              <TagChips tags={s.tags.visitor} visitor testId="subscriber-visitor-tags" />
            </Stack>
          ),
        },
        { header: t("subscribers.columns.created"), from: "md", sx: { whiteSpace: "nowrap" }, cell: (s) => formatDateTime(s.createdAt, timeZone) },
        { header: t("subscribers.columns.lastSeen"), from: "sm", sx: { whiteSpace: "nowrap" }, cell: (s) => formatDateTime(s.lastSeenAt, timeZone) },
      ]}
      actions={{
        cell: (s) => (
          <RowIconAction
            icon={<DeleteOutline />}
            title={t("subscribers.remove")}
            label={t("subscribers.removeNamed", { browser: browserOf(t, s), date: formatDateTime(s.createdAt, timeZone) })}
            onClick={() => onRemove(s)}
          />
        ),
      }}
    />
  );
}
