import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Container from "@mui/material/Container";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useAppSelector } from "../hooks/useAppStore.js";
import type { BellAvailability } from "../state/push-slice.js";

/** Home: what the bell is for, and where this browser stands. Later issues add Avisos here. */
export function HomePage() {
  const { t } = useTranslation();
  const steps = [t("app.home.step1"), t("app.home.step2"), t("app.home.step3")];

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 6 } }}>
      <Stack spacing={3}>
        <div>
          <Typography variant="h4" component="h1" gutterBottom sx={{ fontWeight: 600, fontSize: { xs: "1.75rem", sm: "2.125rem" } }}>
            {t("app.home.title")}
          </Typography>
          <Typography variant="body1" color="text.secondary" sx={{ fontSize: "1.1rem" }}>
            {t("app.home.lead")}
          </Typography>
        </div>
        <PushStatus />
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2">
              {t("app.home.stepsTitle")}
            </Typography>
            <List>
              {steps.map((step, index) => (
                <ListItem key={step} disableGutters>
                  <ListItemIcon sx={{ minWidth: 40 }}>
                    <StepNumber value={index + 1} />
                  </ListItemIcon>
                  <ListItemText primary={step} />
                </ListItem>
              ))}
            </List>
          </CardContent>
        </Card>
      </Stack>
    </Container>
  );
}

function StepNumber({ value }: { value: number }) {
  return (
    <Typography
      component="span"
      aria-hidden
      sx={{
        width: 28,
        height: 28,
        borderRadius: "50%",
        bgcolor: "primary.main",
        color: "primary.contrastText",
        display: "inline-flex",
        alignItems: "center",
        justifyContent: "center",
        fontWeight: 600,
        fontSize: "0.9rem",
      }}
    >
      {new Intl.NumberFormat("pt-BR").format(value)}
    </Typography>
  );
}

/** The bell's state in words, and why it is missing when it is. */
function PushStatus() {
  const { t } = useTranslation();
  const { availability, token } = useAppSelector((state) => state.push);
  const text = statusText(availability, token !== null, t);
  const severity = availability === "available" ? (token ? "success" : "info") : availability === "checking" ? "info" : "warning";
  return (
    <Alert severity={severity} variant="outlined" role="status" data-testid="push-status">
      {text}
    </Alert>
  );
}

function statusText(availability: BellAvailability, on: boolean, t: (key: string) => string): string {
  switch (availability) {
    case "checking":
      return t("app.home.status.checking");
    case "available":
      return on ? t("app.home.status.on") : t("app.home.status.off");
    case "insecure":
      return t("app.home.status.insecure");
    case "unsupported":
      return t("app.home.status.unsupported");
    case "webview":
      return t("app.home.status.webview");
    case "ios-browser-tab":
      return t("app.home.status.iosBrowserTab");
  }
}
