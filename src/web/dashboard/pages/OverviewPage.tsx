import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import { OverviewCharts } from "../charts/OverviewCharts.js";
import { PageHeading } from "../components/PageHeading.js";
import { DASHBOARD_PATHS } from "../paths.js";
import { OverviewSummary } from "../notifications/RecentNotifications.js";
import { useCurrentUser } from "../session/session-context.js";

/** Visão geral: subscribers now and the latest notifications with their results. */
export function OverviewPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
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
      <OverviewSummary />
      <OverviewCharts />
    </>
  );
}
