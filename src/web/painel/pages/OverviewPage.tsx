import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import InsightsOutlined from "@mui/icons-material/InsightsOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { PageHeading } from "../components/PageHeading.js";
import { PAINEL_PATHS } from "../paths.js";
import { useCurrentUser } from "../session/session-context.js";

/** Visão geral: the numbers come with the subscribers and sends APIs; until then, say so. */
export function OverviewPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  return (
    <>
      <PageHeading
        title={t("painel.overview.title")}
        subtitle={t("painel.overview.greeting", { name: user.name })}
        action={
          <Button component={RouterLink} to={PAINEL_PATHS.compose} variant="contained">
            {t("painel.overview.compose")}
          </Button>
        }
      />
      <Card variant="outlined">
        <EmptyState icon={<InsightsOutlined />} title={t("painel.soon.emptyTitle")} text={t("painel.overview.soon")} />
      </Card>
    </>
  );
}
