import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { OverviewCharts } from "../charts/OverviewCharts.js";
import { PageHeading } from "../components/PageHeading.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS } from "../paths.js";
import { OverviewSummary } from "../notifications/RecentNotifications.js";
import { useDashboardServices } from "../services.js";
import { useCurrentUser } from "../session/session-context.js";

/** Visão geral: subscribers now and the latest notifications with their results, for every site or one. */
export function OverviewPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { sites: sitesApi } = useDashboardServices();
  const sites = useResource(useCallback(() => sitesApi.listSites(), [sitesApi])).resource;
  const [site, setSite] = useState("");
  const choices = sites.status === "ready" ? sites.data.sites : [];
  return (
    <>
      <PageHeading
        title={t("dashboard.overview.title")}
        subtitle={t("dashboard.overview.greeting", { name: user.name })}
        action={
          <Button component={RouterLink} to={DASHBOARD_PATHS.compose} variant="contained">
            {t("dashboard.overview.compose")}
          </Button>
        }
      />
      {/* Only once there is more than Sino's own site to tell apart. */}
      {choices.length > 1 && (
        <TextField
          select
          size="small"
          label={t("sites.filter")}
          value={site}
          onChange={(event) => setSite(event.target.value)}
          sx={{ minWidth: 240, mb: 2 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          data-testid="overview-site-filter"
        >
          <MenuItem value="">{t("sites.audience.all")}</MenuItem>
          {choices.map((choice) => (
            <MenuItem key={choice.id} value={choice.id}>
              {choice.origin}
            </MenuItem>
          ))}
        </TextField>
      )}
      <OverviewSummary site={site === "" ? undefined : site} />
      <OverviewCharts site={site === "" ? undefined : site} />
    </>
  );
}
