import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import BadgeOutlined from "@mui/icons-material/BadgeOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { ResourcePagination } from "../components/ResourcePagination.js";
import { ResourceTable } from "../components/ResourceTable.js";
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
    <ResourceListPage
      title={t("people.title")}
      subtitle={t("people.subtitle")}
      filters={
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
      }
      list={list}
      isEmpty={(data) => data.people.length === 0}
      empty={<EmptyState icon={<BadgeOutlined />} title={t("people.emptyTitle")} text={query === "" ? t("people.emptyText") : t("people.emptyFilteredText")} />}
    >
      {(data) => (
        <>
          <ResourceTable
            rows={data.people}
            label={t("people.title")}
            testId="people-table"
            rowKey={(person) => person.userId}
            rowTestId="person-row"
            columns={[
              {
                header: t("people.columns.userId"),
                sx: { overflowWrap: "anywhere" },
                cell: (person) => (
                  <Link component={RouterLink} to={personPagePath(person.userId)}>
                    {person.userId}
                  </Link>
                ),
              },
              { header: t("people.columns.devices"), align: "right", sx: { fontVariantNumeric: "tabular-nums" }, cell: (person) => formatNumber(person.subscriptions) },
              { header: t("people.columns.lastSeen"), from: "sm", sx: { whiteSpace: "nowrap" }, cell: (person) => formatDateTime(person.lastSeenAt, timeZone) },
              {
                header: t("people.columns.identified"),
                from: "md",
                sx: { whiteSpace: "nowrap" },
                cell: (person) => (person.identifiedAt === null ? t("people.never") : formatDateTime(person.identifiedAt, timeZone)),
              },
            ]}
          />
          <ResourcePagination
            count={data.total}
            page={page}
            pageSize={pageSize}
            pageSizes={PAGE_SIZES}
            onPage={setPage}
            onPageSize={(size) => {
              setPageSize(size);
              setPage(1);
            }}
            perPageLabel={t("people.perPage")}
            rangeKey="people.range"
          />
        </>
      )}
    </ResourceListPage>
  );
}
