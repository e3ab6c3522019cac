import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { PersonDeliveriesResponse, PersonResponse } from "../../../shared/api/people.js";
import { PageHeading } from "../components/PageHeading.js";
import { ResourceView } from "../components/ResourceView.js";
import { formatDateTime, formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS, notificationPagePath } from "../paths.js";
import { useDashboardServices } from "../services.js";
import { OutcomeChip } from "./OutcomeChip.js";
import { PersonTagsCard } from "./PersonTagsCard.js";
import { PersonPrivacyCard } from "./PersonPrivacyCard.js";
import { TagChips } from "./TagChips.js";

const PAGE_SIZE = 25;

/** Pessoa (admin): one person's devices (never endpoints) and the notifications that reached them. */
export function PersonPage() {
  const { t } = useTranslation();
  const { userId = "" } = useParams();
  const { people: api } = useDashboardServices();
  const [page, setPage] = useState(1);
  const person = useResource(useCallback(() => api.getPerson(userId), [api, userId]));
  const history = useResource(useCallback(() => api.listPersonDeliveries(userId, { page, pageSize: PAGE_SIZE }), [api, userId, page]));

  return (
    <>
      <PageHeading
        title={userId}
        subtitle={t("people.person.subtitle")}
        action={
          <Button component={RouterLink} to={DASHBOARD_PATHS.people}>
            {t("people.person.back")}
          </Button>
        }
      />
      <Stack spacing={3}>
        {person.resource.status === "ready" && (
          <PersonTagsCard
            userId={userId}
            tags={person.resource.data.tags}
            save={(tags) => api.setPersonTags(userId, tags)}
            onSaved={(tags) => person.update((data) => ({ ...data, tags }))}
          />
        )}
        <Card variant="outlined">
          <Typography variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
            {t("people.person.devicesTitle")}
          </Typography>
          <ResourceView
            resource={person.resource}
            onRetry={person.reload}
            isEmpty={(data) => data.subscriptions.length === 0}
            empty={<Typography sx={{ p: 2 }} color="text.secondary">{t("people.person.noDevices")}</Typography>}
          >
            {(data) => <DevicesTable devices={data.subscriptions} />}
          </ResourceView>
        </Card>
        <PersonPrivacyCard userId={userId} />
        <Card variant="outlined">
          <Typography variant="h6" component="h2" sx={{ px: 2, pt: 2 }}>
            {t("people.person.historyTitle")}
          </Typography>
          <ResourceView
            resource={history.resource}
            onRetry={history.reload}
            isEmpty={(data) => data.deliveries.length === 0}
            empty={<Typography sx={{ p: 2 }} color="text.secondary">{t("people.person.noHistory")}</Typography>}
          >
            {(data) => <HistoryTable data={data} page={page} onPage={setPage} />}
          </ResourceView>
        </Card>
      </Stack>
    </>
  );
}

function DevicesTable({ devices }: { devices: PersonResponse["person"]["subscriptions"] }) {
  const { t } = useTranslation();
  const { timeZone } = useDashboardServices();
  return (
    <Table aria-label={t("people.person.devicesTitle")} data-testid="person-devices">
      <TableHead>
        <TableRow>
          <TableCell>{t("people.person.columns.browser")}</TableCell>
          <TableCell>{t("people.person.columns.site")}</TableCell>
          <TableCell>{t("people.person.columns.channels")}</TableCell>
          <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("people.tags.visitorTitle")}</TableCell>
          <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("people.person.columns.created")}</TableCell>
          <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("people.person.columns.lastSeen")}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {devices.map((device) => (
          <TableRow key={device.id} data-testid="device-row">
            <TableCell>{[device.browser ?? t("people.person.unknownBrowser"), device.os].filter(Boolean).join(" · ")}</TableCell>
            <TableCell sx={{ overflowWrap: "anywhere" }}>{device.site.origin ?? t("people.deletedSite")}</TableCell>
            <TableCell>
              {device.channels.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {t("people.person.noChannels")}
                </Typography>
              ) : (
                <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: "wrap" }}>
                  {device.channels.map((slug) => (
                    <Chip key={slug} size="small" label={slug} />
                  ))}
                </Stack>
              )}
            </TableCell>
            <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>
              <TagChips tags={device.visitorTags} visitor empty={t("people.tags.noneVisitor")} testId="device-visitor-tags" />
            </TableCell>
            <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{formatDateTime(device.createdAt, timeZone)}</TableCell>
            <TableCell sx={{ display: { xs: "none", sm: "table-cell" }, whiteSpace: "nowrap" }}>{formatDateTime(device.lastSeenAt, timeZone)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function HistoryTable({ data, page, onPage }: { data: PersonDeliveriesResponse; page: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const { timeZone } = useDashboardServices();
  const when = (iso: string | null) => (iso === null ? t("people.never") : formatDateTime(iso, timeZone));
  return (
    <>
      <Table aria-label={t("people.person.historyTitle")} data-testid="person-history">
        <TableHead>
          <TableRow>
            <TableCell>{t("people.person.columns.notification")}</TableCell>
            <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("people.person.columns.sentAt")}</TableCell>
            <TableCell>{t("people.person.columns.outcome")}</TableCell>
            <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("people.person.columns.shown")}</TableCell>
            <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("people.person.columns.clicked")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.deliveries.map((delivery) => (
            <TableRow key={`${delivery.notification.id}-${delivery.subscriptionId}`} data-testid="history-row">
              <TableCell sx={{ overflowWrap: "anywhere" }}>
                <Link component={RouterLink} to={notificationPagePath(delivery.notification.id)}>
                  {delivery.notification.title}
                </Link>
              </TableCell>
              <TableCell sx={{ display: { xs: "none", sm: "table-cell" }, whiteSpace: "nowrap" }}>{formatDateTime(delivery.notification.createdAt, timeZone)}</TableCell>
              <TableCell>
                <OutcomeChip outcome={delivery.outcome} reason={delivery.reason} />
              </TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{when(delivery.shownAt)}</TableCell>
              <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }} data-testid="history-clicked">
                {when(delivery.clickedAt)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={data.total}
        page={page - 1}
        rowsPerPage={PAGE_SIZE}
        rowsPerPageOptions={[PAGE_SIZE]}
        onPageChange={(_event, next) => onPage(next + 1)}
        labelDisplayedRows={({ from, to, count }) => t("people.range", { from: formatNumber(from), to: formatNumber(to), count: formatNumber(count) })}
      />
    </>
  );
}
