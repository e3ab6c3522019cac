import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Card from "@mui/material/Card";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import BadgeOutlined from "@mui/icons-material/BadgeOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { PageHeading } from "../components/PageHeading.js";
import { ResourceView } from "../components/ResourceView.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { personPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";

const PAGE_SIZES = [25, 50, 100];
/** Typing waits this long before asking the server, so a search is not one request per key. */
const SEARCH_DELAY_MS = 300;

/** Pessoas (admin): the host app's people, searchable by the start of their user id. */
export function PeoplePage() {
  const { t } = useTranslation();
  const { people: api, timeZone } = useDashboardServices();
  const [typed, setTyped] = useState("");
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);

  useEffect(() => {
    const timer = setTimeout(() => {
      setQuery(typed);
      setPage(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const list = useResource(useCallback(() => api.listPeople({ query, page, pageSize }), [api, query, page, pageSize]));

  return (
    <>
      <PageHeading title={t("people.title")} subtitle={t("people.subtitle")} />
      <Card variant="outlined">
        <Stack sx={{ p: 2 }}>
          <TextField
            size="small"
            type="search"
            label={t("people.search")}
            helperText={t("people.searchHint")}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            sx={{ maxWidth: 420 }}
            slotProps={{ htmlInput: { "data-testid": "people-search", maxLength: 128 } }}
          />
        </Stack>
        <ResourceView
          resource={list.resource}
          onRetry={list.reload}
          isEmpty={(data) => data.people.length === 0}
          empty={<EmptyState icon={<BadgeOutlined />} title={t("people.emptyTitle")} text={query === "" ? t("people.emptyText") : t("people.emptyFilteredText")} />}
        >
          {(data) => (
            <>
              <Table aria-label={t("people.title")} data-testid="people-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t("people.columns.userId")}</TableCell>
                    <TableCell align="right">{t("people.columns.devices")}</TableCell>
                    <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("people.columns.lastSeen")}</TableCell>
                    <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("people.columns.identified")}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.people.map((person) => (
                    <TableRow key={person.userId} data-testid="person-row">
                      <TableCell sx={{ overflowWrap: "anywhere" }}>
                        <Link component={RouterLink} to={personPagePath(person.userId)}>
                          {person.userId}
                        </Link>
                      </TableCell>
                      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
                        {formatNumber(person.subscriptions)}
                      </TableCell>
                      <TableCell sx={{ display: { xs: "none", sm: "table-cell" }, whiteSpace: "nowrap" }}>{formatDateTime(person.lastSeenAt, timeZone)}</TableCell>
                      <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>
                        {person.identifiedAt === null ? t("people.never") : formatDateTime(person.identifiedAt, timeZone)}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              <TablePagination
                component="div"
                count={data.total}
                page={page - 1}
                rowsPerPage={pageSize}
                rowsPerPageOptions={PAGE_SIZES}
                onPageChange={(_event, next) => setPage(next + 1)}
                onRowsPerPageChange={(event) => {
                  setPageSize(Number(event.target.value));
                  setPage(1);
                }}
                labelRowsPerPage={t("people.perPage")}
                labelDisplayedRows={({ from, to, count }) => t("people.range", { from: formatNumber(from), to: formatNumber(to), count: formatNumber(count) })}
              />
            </>
          )}
        </ResourceView>
      </Card>
    </>
  );
}
