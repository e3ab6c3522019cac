import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import ManageSearchOutlined from "@mui/icons-material/ManageSearchOutlined";
import type { AuditEntry, AuditResponse } from "../../../shared/api/audit.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { wallTimeToEpoch } from "../../../shared/time/zoned-time.js";
import { EmptyState } from "../components/EmptyState.js";
import { PageHeading } from "../components/PageHeading.js";
import { ResourceView } from "../components/ResourceView.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { auditQuery, createAuditApi, type AuditFilters } from "./audit-api.js";

const PAGE_SIZES = [25, 50, 100];
/** "Qualquer" is the empty value: show it (and keep the label up) instead of an empty box. */
const ALL_SHOWN = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;
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
    <>
      <PageHeading
        title={t("audit.page.title")}
        subtitle={days === null ? t("audit.page.introForever") : t("audit.page.intro", { days: formatNumber(days) })}
        action={
          <Button variant="outlined" startIcon={<FileDownloadOutlined />} href={exportHref} download data-testid="audit-export">
            {t("audit.page.export")}
          </Button>
        }
      />
      <Card variant="outlined">
        <Stack component="form" role="search" aria-label={t("audit.page.filters")} direction={{ xs: "column", md: "row" }} spacing={2} sx={{ p: 2 }} onSubmit={(e) => e.preventDefault()}>
          <TextField select size="small" label={t("audit.page.actor")} value={filters.actor} onChange={(e) => change({ actor: e.target.value })} slotProps={ALL_SHOWN} sx={{ minWidth: 220 }} data-testid="audit-actor">
            <MenuItem value="">{t("audit.page.anyActor")}</MenuItem>
            {(ready?.users ?? []).map((u) => (
              <MenuItem key={`user:${u.id}`} value={`user:${u.id}`}>
                {t("audit.page.userOption", { name: u.name })}
              </MenuItem>
            ))}
            {(ready?.tokens ?? []).map((token) => (
              <MenuItem key={`token:${token.id}`} value={`token:${token.id}`}>
                {t("audit.page.tokenOption", { name: token.name })}
              </MenuItem>
            ))}
            <MenuItem value="anonymous">{t("audit.page.anonymous")}</MenuItem>
          </TextField>
          <TextField select size="small" label={t("audit.page.action")} value={filters.action} onChange={(e) => change({ action: e.target.value })} slotProps={ALL_SHOWN} sx={{ minWidth: 240 }} data-testid="audit-action">
            <MenuItem value="">{t("audit.page.anyAction")}</MenuItem>
            {[...knownActions]
              .sort((a, b) => label(a).localeCompare(label(b), "pt-BR"))
              .map((action) => (
                <MenuItem key={action} value={action}>
                  {label(action)}
                </MenuItem>
              ))}
          </TextField>
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
        <ResourceView
          resource={list.resource}
          onRetry={list.reload}
          isEmpty={(data) => data.entries.length === 0}
          empty={<EmptyState icon={<ManageSearchOutlined />} title={t("audit.page.emptyTitle")} text={t("audit.page.empty")} />}
        >
          {(data) => (
            <AuditTable
              data={data}
              page={page}
              timeZone={timeZone}
              onPage={(n) => setPage((p) => ({ ...p, page: n }))}
              onPageSize={(pageSize) => setPage({ page: 1, pageSize })}
            />
          )}
        </ResourceView>
      </Card>
    </>
  );
}

function actorText(entry: AuditEntry, t: (key: string) => string): string {
  return entry.actor.name ?? t(`audit.actorKinds.${entry.actor.kind}`);
}

function AuditTable({
  data,
  page,
  timeZone,
  onPage,
  onPageSize,
}: {
  data: AuditResponse;
  page: { page: number; pageSize: number };
  timeZone: string;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}) {
  const { t } = useTranslation();
  const label = useActionLabel();
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ px: 2 }} data-testid="audit-total">
        {t("audit.page.total", { count: data.total, formatted: formatNumber(data.total) })}
      </Typography>
      <Table aria-label={t("audit.page.tableLabel")} data-testid="audit-table" size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t("audit.page.columns.at")}</TableCell>
            <TableCell>{t("audit.page.columns.actor")}</TableCell>
            <TableCell>{t("audit.page.columns.action")}</TableCell>
            <TableCell>{t("audit.page.columns.target")}</TableCell>
            <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("audit.page.columns.origin")}</TableCell>
            <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("audit.page.columns.status")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.entries.map((entry) => (
            <TableRow key={entry.id} data-testid="audit-row" data-action={entry.action}>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDateTime(entry.at, timeZone)}</TableCell>
              <TableCell>
                <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                  <span>{actorText(entry, t)}</span>
                  {entry.actor.kind !== "user" && <Chip size="small" variant="outlined" label={t(`audit.actorKinds.${entry.actor.kind}`)} />}
                </Stack>
              </TableCell>
              <TableCell>{label(entry.action)}</TableCell>
              <TableCell>{entry.targetId ?? "—"}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" }, maxWidth: 320 }}>
                <Typography variant="body2">{entry.ip ?? "—"}</Typography>
                {entry.userAgent !== null && (
                  <Typography variant="caption" color="text.secondary" sx={{ display: "block", overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }} title={entry.userAgent}>
                    {entry.userAgent}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{entry.status}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={data.total}
        page={page.page - 1}
        rowsPerPage={page.pageSize}
        rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_e, n) => onPage(n + 1)}
        onRowsPerPageChange={(e) => onPageSize(Number(e.target.value))}
        labelRowsPerPage={t("subscribers.perPage")}
        labelDisplayedRows={({ from, to, count }) => t("subscribers.range", { from: formatNumber(from), to: formatNumber(to), count: formatNumber(count) })}
      />
    </>
  );
}
