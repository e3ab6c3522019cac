import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import Container from "@mui/material/Container";
import Typography from "@mui/material/Typography";

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t("app.notFound.title")}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained">
        {t("app.notFound.back")}
      </Button>
    </Container>
  );
}
