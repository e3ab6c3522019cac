import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import SearchOffOutlined from "@mui/icons-material/SearchOffOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { PAINEL_PATHS } from "../paths.js";

export function PainelNotFoundPage() {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={<SearchOffOutlined />}
      title={t("painel.notFound.title")}
      text={t("painel.notFound.text")}
      action={
        <Button component={RouterLink} to={PAINEL_PATHS.root} variant="contained">
          {t("painel.notFound.back")}
        </Button>
      }
    />
  );
}
