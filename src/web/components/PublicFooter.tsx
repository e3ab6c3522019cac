import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";

/** The public pages' footer: the way to /privacidade (what Sino keeps and for how long). */
export function PublicFooter() {
  const { t } = useTranslation();
  return (
    <Box component="footer" sx={{ py: 3, px: 2, borderTop: 1, borderColor: "divider", textAlign: "center" }}>
      <Link component={RouterLink} to="/privacidade" color="primary" data-testid="privacy-link">
        {t("audit.privacy.footerLink")}
      </Link>
    </Box>
  );
}
