import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import SearchOffOutlined from "@mui/icons-material/SearchOffOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { DASHBOARD_PATHS } from "../paths.js";

export function DashboardNotFoundPage() {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={<SearchOffOutlined />}
      title={t("dashboard.notFound.title")}
      text={t("dashboard.notFound.text")}
      action={
        <Button component={RouterLink} to={DASHBOARD_PATHS.root} variant="contained">
          {t("dashboard.notFound.back")}
        </Button>
      }
    />
  );
}
