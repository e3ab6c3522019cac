import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import ManageSearchOutlined from "@mui/icons-material/ManageSearchOutlined";
import type { AuditEntry, AuditResponse } from "../../../shared/api/audit.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { wallTimeToEpoch } from "../../../shared/time/zoned-time.js";
import { EmptyState } from "../components/EmptyState.js";
import { ListFilterSelect } from "../components/ListFilterSelect.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { ResourcePagination } from "../components/ResourcePagination.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { auditQuery, createAuditApi, type AuditFilters } from "./audit-api.js";

const PAGE_SIZES = [25, 50, 100];
const DAY_MS = 86_400_000;

/** The action's pt-BR label (catalog `audit.actions.<group>.<name>`), or its code when unknown. */
function useActionLabel(): (action: string) => string {
  const { t } = useTranslation();
  return (action) => t(`audit.actions.${action}`, { defaultValue: action });
}

/** Auditoria (admin): who did what, when and from where; filters, pages and the CSV export. Read only. */
export function AuditPage() {
  const { t } = useTranslation();
  const { api, timeZone } = useDashboardServices();
  const auditApi = useMemo(() => createAuditApi(), []);
  const label = useActionLabel();
  const [filters, setFilters] = useState<AuditFilters>({ actor: "", action: "", from: "", to: "" });
  const [page, setPage] = useState({ page: 1, pageSize: 50 });

  // A day typed in the filter is a day in SINO_TIME_ZONE, as the table shows the times.
  const toInstant = useCallback(
    (day: string, nextDay: boolean) => {
      const start = wallTimeToEpoch({ date: day, time: "00:00" }, timeZone) ?? Date.parse(day);
      const end = nextDay ? (wallTimeToEpoch({ date: new Date(Date.parse(day) + DAY_MS).toISOString().slice(0, 10), time: "00:00" }, timeZone) ?? start + DAY_MS) : start;
      return new Date(end).toISOString();
    },
    [timeZone],
  );
  const invalidPeriod = filters.from !== "" && filters.to !== "" && filters.from > filters.to;
  const list = useResource(
    useCallback(
      () => (invalidPeriod ? Promise.resolve<AuditResponse>({ entries: [], total: 0, actions: [] }) : auditApi.list(auditQuery(filters, toInstant, page))),
      [auditApi, filters, page, toInstant, invalidPeriod],
    ),
  );
  const facets = useResource(
    useCallback(async () => {
      const [users, tokens, privacy] = await Promise.all([api.listUsers(), api.listTokens(), auditApi.privacy()]);
      return { users, tokens, privacy };
    }, [api, auditApi]),
  );
  const [knownActions, setKnownActions] = useState<string[]>([]);
  if (list.resource.status === "ready" && list.resource.data.actions.length > 0 && knownActions.length === 0) setKnownActions(list.resource.data.actions);
  const ready = facets.resource.status === "ready" ? facets.resource.data : null;
  const days = ready?.privacy.auditRetentionDays ?? null;

  const change = (next: Partial<AuditFilters>) => {
    setFilters((current) => ({ ...current, ...next }));
    setPage((current) => ({ ...current, page: 1 }));
  };
  const exportHref = `${API_ROUTES.auditCsv}${auditQuery(filters, toInstant)}`;

  return (
    <ResourceListPage
      title={t("audit.page.title")}
      subtitle={days === null ? t("audit.page.introForever") : t("audit.page.intro", { days: formatNumber(days) })}
      action={
        <Button variant="outlined" startIcon={<FileDownloadOutlined />} href={exportHref} download data-testid="audit-export">
          {t("audit.page.export")}
        </Button>
      }
      filters={
        <Stack component="form" role="search" aria-label={t("audit.page.filters")} direction={{ xs: "column", md: "row" }} spacing={2} sx={{ p: 2 }} onSubmit={(e) => e.preventDefault()}>
          <ListFilterSelect
            label={t("audit.page.actor")}
            anyLabel={t("audit.page.anyActor")}
            value={filters.actor}
            onChange={(actor) => change({ actor })}
            options={[
              ...(ready?.users ?? []).map((u) => ({ value: `user:${u.id}`, label: t("audit.page.userOption", { name: u.name }) })),
              ...(ready?.tokens ?? []).map((token) => ({ value: `token:${token.id}`, label: t("audit.page.tokenOption", { name: token.name }) })),
              { value: "anonymous", label: t("audit.page.anonymous") },
            ]}
            sx={{ minWidth: 220 }}
            testId="audit-actor"
          />
          <ListFilterSelect
            label={t("audit.page.action")}
            anyLabel={t("audit.page.anyAction")}
            value={filters.action}
            onChange={(action) => change({ action })}
            options={knownActions.map((action) => ({ value: action, label: label(action) })).sort((a, b) => a.label.localeCompare(b.label, "pt-BR"))}
            sx={{ minWidth: 240 }}
            testId="audit-action"
          />
          <TextField
            size="small"
            type="date"
            label={t("audit.page.from")}
            value={filters.from}
            onChange={(e) => change({ from: e.target.value })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "audit-from" } }}
          />
          <TextField
            size="small"
            type="date"
            label={t("audit.page.to")}
            value={filters.to}
            onChange={(e) => change({ to: e.target.value })}
            error={invalidPeriod}
            helperText={invalidPeriod ? t("errors.invalid_audit_period") : undefined}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "audit-to" } }}
          />
        </Stack>
      }
      list={list}
      isEmpty={(data) => data.entries.length === 0}
      empty={<EmptyState icon={<ManageSearchOutlined />} title={t("audit.page.emptyTitle")} text={t("audit.page.empty")} />}
    >
      {(data) => (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ px: 2 }} data-testid="audit-total">
            {t("audit.page.total", { count: data.total, formatted: formatNumber(data.total) })}
          </Typography>
          <AuditTable entries={data.entries} timeZone={timeZone} />
          <ResourcePagination
            count={data.total}
            page={page.page}
            pageSize={page.pageSize}
            pageSizes={PAGE_SIZES}
            onPage={(n) => setPage((p) => ({ ...p, page: n }))}
            onPageSize={(pageSize) => setPage({ page: 1, pageSize })}
            perPageLabel={t("subscribers.perPage")}
            rangeKey="subscribers.range"
          />
        </>
      )}
    </ResourceListPage>
  );
}

function actorText(entry: AuditEntry, t: (key: string) => string): string {
  return entry.actor.name ?? t(`audit.actorKinds.${entry.actor.kind}`);
}

function AuditTable({ entries, timeZone }: { entries: AuditEntry[]; timeZone: string }) {
  const { t } = useTranslation();
  const label = useActionLabel();
  return (
    <ResourceTable
      size="small"
      rows={entries}
      label={t("audit.page.tableLabel")}
      testId="audit-table"
      rowKey={(entry) => entry.id}
      rowTestId="audit-row"
      rowData={(entry) => ({ "data-action": entry.action })}
      columns={[
        { header: t("audit.page.columns.at"), sx: { whiteSpace: "nowrap" }, cell: (entry) => formatDateTime(entry.at, timeZone) },
        {
          header: t("audit.page.columns.actor"),
          cell: (entry) => (
            <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <span>{actorText(entry, t)}</span>
              {entry.actor.kind !== "user" && <Chip size="small" variant="outlined" label={t(`audit.actorKinds.${entry.actor.kind}`)} />}
            </Stack>
          ),
        },
        { header: t("audit.page.columns.action"), cell: (entry) => label(entry.action) },
        { header: t("audit.page.columns.target"), cell: (entry) => entry.targetId ?? "—" },
        {
          header: t("audit.page.columns.origin"),
          from: "md",
          sx: { maxWidth: 320 },
          cell: (entry) => (
            <>
              <Typography variant="body2">{entry.ip ?? "—"}</Typography>
              {entry.userAgent !== null && (
                <Typography variant="caption" color="text.secondary" sx={{ display: "block", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }} title={entry.userAgent}>
                  {entry.userAgent}
                </Typography>
              )}
            </>
          ),
        },
        { header: t("audit.page.columns.status"), from: "sm", cell: (entry) => entry.status },
      ]}
    />
  );
}
