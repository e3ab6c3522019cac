import { useCallback, useState } from "react";
import { ActivityFilter } from "./ActivityFilter.js";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
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
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceView } from "../components/ResourceView.js";
import { PageHeading } from "../components/PageHeading.js";
import { useNotice } from "../components/useNotice.js";
import { VisuallyHidden } from "../components/VisuallyHidden.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { personPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { TagChips } from "../people/TagChips.js";

const PAGE_SIZES = [25, 50, 100];
/** "Todos" is the empty value: show it (and keep the label up) instead of an empty box. */
const ALL_SHOWN = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

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
      <PageHeading
        title={t("subscribers.title")}
        subtitle={t("subscribers.subtitle")}
        action={
          <Button variant="outlined" startIcon={<FileDownloadOutlined />} href={API_ROUTES.subscribersCsv} download>
            {t("subscribers.exportCsv")}
          </Button>
        }
      />
      {stats && <Summary stats={stats} />}
      <Card variant="outlined">
        <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ p: 2 }}>
          <TextField select size="small" label={t("subscribers.filters.channel")} value={filters.channel} onChange={(e) => change({ channel: e.target.value })} slotProps={ALL_SHOWN} sx={{ minWidth: 200 }}>
            <MenuItem value="">{t("subscribers.filters.any")}</MenuItem>
            {channels.map((c) => (
              <MenuItem key={c.slug} value={c.slug}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
          {sites.length > 1 && (
            <TextField select size="small" label={t("sites.filter")} value={filters.site} onChange={(e) => change({ site: e.target.value })} slotProps={ALL_SHOWN} sx={{ minWidth: 200 }} data-testid="site-filter">
              <MenuItem value="">{t("subscribers.filters.any")}</MenuItem>
              {sites.map((site) => (
                <MenuItem key={site.id} value={site.id}>
                  {site.origin}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField select size="small" label={t("subscribers.filters.browser")} value={filters.browser} onChange={(e) => change({ browser: e.target.value })} slotProps={ALL_SHOWN} sx={{ minWidth: 200 }}>
            <MenuItem value="">{t("subscribers.filters.any")}</MenuItem>
            {(stats?.byBrowser ?? []).map((b) => (
              <MenuItem key={b.browser} value={b.browser}>
                {b.browser}
              </MenuItem>
            ))}
          </TextField>
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
        <ResourceView
          resource={list.resource}
          onRetry={list.reload}
          isEmpty={(data) => data.subscribers.length === 0}
          empty={
            <EmptyState icon={<GroupsOutlined />} title={t("subscribers.emptyTitle")} text={filtered ? t("subscribers.emptyFilteredText") : t("subscribers.emptyText")} />
          }
        >
          {(data) => (
            <SubscribersTable
              data={data}
              filters={filters}
              timeZone={timeZone}
              nameOf={nameOf}
              onRemove={setRemoving}
              onPage={(page) => setFilters((f) => ({ ...f, page }))}
              onPageSize={(pageSize) => change({ pageSize })}
            />
          )}
        </ResourceView>
      </Card>
      <ConfirmDialog
        open={removing !== null}
        title={t("subscribers.removeTitle")}
        text={t("subscribers.removeText")}
        confirmLabel={t("subscribers.remove")}
        destructive
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          const removed = removing;
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
  filters: Filters;
  timeZone: string;
  nameOf: (slug: string) => string;
  onRemove: (subscriber: Subscriber) => void;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}

function SubscribersTable({ data, filters, timeZone, nameOf, onRemove, onPage, onPageSize }: TableProps) {
  const { t } = useTranslation();
  return (
    <>
      <Table aria-label={t("subscribers.title")} data-testid="subscribers-table">
        <TableHead>
          <TableRow>
            <TableCell>{t("subscribers.columns.browser")}</TableCell>
            <TableCell>{t("subscribers.columns.user")}</TableCell>
            <TableCell>{t("subscribers.columns.channels")}</TableCell>
            <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("subscribers.columns.tags")}</TableCell>
            <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("subscribers.columns.created")}</TableCell>
            <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("subscribers.columns.lastSeen")}</TableCell>
            <TableCell align="right">
              <VisuallyHidden>{t("dashboard.common.actions")}</VisuallyHidden>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.subscribers.map((s) => {
            const browser = [s.browser ?? t("subscribers.unknownBrowser"), s.os].filter(Boolean).join(" · ");
            const created = formatDateTime(s.createdAt, timeZone);
            return (
              <TableRow key={s.id} data-testid="subscriber-row" data-id={s.id}>
                <TableCell>
                  {browser}
                  {s.vapidMismatchAt !== null && (
                    // describeChild: the hint describes the chip; its name stays the short label.
                    // Focusable so keyboard users can open the hint too.
                    <Tooltip title={t("subscribers.vapidMismatchHint")} describeChild>
                      <Chip
                        size="small"
                        color="error"
                        icon={<KeyOffOutlined />}
                        label={t("subscribers.vapidMismatch")}
                        data-testid="vapid-mismatch"
                        tabIndex={0}
                        sx={{ ml: 1 }}
                      />
                    </Tooltip>
                  )}
                </TableCell>
                <TableCell sx={{ overflowWrap: "anywhere" }}>
                  {s.userId === null ? (
                    <Typography variant="body2" color="text.secondary">
                      {t("people.recipients.anonymous")}
                    </Typography>
                  ) : (
                    <Link component={RouterLink} to={personPagePath(s.userId)}>
                      {s.userId}
                    </Link>
                  )}
                </TableCell>
                <TableCell>
                  {s.channels.length === 0 ? (
                    <Typography variant="body2" color="text.secondary">
                      {t("subscribers.noChannels")}
                    </Typography>
                  ) : (
                    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: "wrap" }}>
                      {s.channels.map((slug) => (
                        <Chip key={slug} size="small" label={nameOf(slug)} />
                      ))}
                    </Stack>
                  )}
                </TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>
                  <Stack spacing={0.5}>
                    <TagChips tags={s.tags.trusted} testId="subscriber-trusted-tags" />
                    <TagChips tags={s.tags.visitor} visitor testId="subscriber-visitor-tags" />
                  </Stack>
                </TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{created}</TableCell>
                <TableCell sx={{ display: { xs: "none", sm: "table-cell" }, whiteSpace: "nowrap" }}>{formatDateTime(s.lastSeenAt, timeZone)}</TableCell>
                <TableCell align="right">
                  <Tooltip title={t("subscribers.remove")}>
                    <IconButton aria-label={t("subscribers.removeNamed", { browser, date: created })} onClick={() => onRemove(s)}>
                      <DeleteOutline />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={data.total}
        page={filters.page - 1}
        rowsPerPage={filters.pageSize}
        rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_event, page) => onPage(page + 1)}
        onRowsPerPageChange={(event) => onPageSize(Number(event.target.value))}
        labelRowsPerPage={t("subscribers.perPage")}
        labelDisplayedRows={({ from, to, count }) => t("subscribers.range", { from: formatNumber(from), to: formatNumber(to), count: formatNumber(count) })}
      />
    </>
  );
}
