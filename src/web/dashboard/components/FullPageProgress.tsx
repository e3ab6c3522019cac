import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";

export function FullPageProgress() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: "60vh", display: "flex", alignItems: "center", justifyContent: "center" }}>
      <CircularProgress aria-label={t("dashboard.common.loading")} />
    </Box>
  );
}
