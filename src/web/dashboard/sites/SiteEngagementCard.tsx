import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import LinearProgress from "@mui/material/LinearProgress";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Site } from "../../../shared/api/sites.js";
import { fetchEngagement } from "../api/engagement-api.js";
import { ResourceView } from "../components/ResourceView.js";
import { formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";

/**
 * Painel → Sites: how many subscribers are active and how many sleep (no click and no visit for
 * SINO_SLEEPING_DAYS) on each site now, and the split over the last days as the worker recorded it.
 */
export function SiteEngagementCard({ sites }: { sites: readonly Site[] }) {
  const { t } = useTranslation();
  const { resource, reload } = useResource(useCallback(() => fetchEngagement(14), []));
  const originOf = (id: string) => sites.find((s) => s.id === id)?.origin ?? id;
  return (
    <Card variant="outlined" sx={{ mb: 2 }} data-testid="site-engagement">
      <CardContent>
        <Typography variant="h6" component="h2" id="site-engagement-title">
          {t("engagement.painel.title")}
        </Typography>
        <ResourceView resource={resource} onRetry={reload} isEmpty={() => false} empty={null}>
          {(data) => (
            <Stack spacing={2}>
              <Typography variant="body2" color="text.secondary">
                {t("engagement.painel.explain", { days: data.sleepingDays })}
              </Typography>
              {data.sites.length === 0 && <Typography>{t("engagement.painel.none")}</Typography>}
              {data.sites.map((split) => {
                const total = split.active + split.sleeping;
                const share = total === 0 ? 0 : Math.round((split.active / total) * 100);
                return (
                  <Box key={split.siteId} data-testid="site-engagement-row" data-site={split.siteId}>
                    <Typography sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>{originOf(split.siteId)}</Typography>
                    <Typography variant="body2" data-testid="site-engagement-split">
                      {t("engagement.painel.split", { active: formatNumber(split.active), sleeping: formatNumber(split.sleeping) })}
                    </Typography>
                    <LinearProgress variant="determinate" value={share} aria-label={t("engagement.painel.activeShare", { origin: originOf(split.siteId), share })} sx={{ mt: 0.5 }} />
                  </Box>
                );
              })}
              {data.history.length > 0 && (
                <Table size="small" aria-label={t("engagement.painel.historyTitle")} data-testid="site-engagement-history">
                  <TableHead>
                    <TableRow>
                      <TableCell>{t("engagement.painel.day")}</TableCell>
                      <TableCell align="right">{t("engagement.painel.active")}</TableCell>
                      <TableCell align="right">{t("engagement.painel.sleeping")}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.history.map((day) => (
                      <TableRow key={day.day}>
                        <TableCell>{day.day.split("-").reverse().join("/")}</TableCell>
                        <TableCell align="right">{formatNumber(day.active)}</TableCell>
                        <TableCell align="right">{formatNumber(day.sleeping)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </Stack>
          )}
        </ResourceView>
      </CardContent>
    </Card>
  );
}
