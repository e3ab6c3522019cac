import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import CircularProgress from "@mui/material/CircularProgress";
import Container from "@mui/material/Container";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useSino } from "@sino/react";
import { ChannelChecklist } from "../channels/ChannelChecklist.js";
import { ChannelChoiceStatus } from "../channels/ChannelChoiceStatus.js";
import { SaveButton } from "../channels/ChannelMenuButton.js";
import { useChannelChoice } from "../channels/useChannelChoice.js";
import { PushStatus } from "../components/PushStatus.js";
import { PrivacySection } from "../components/PrivacySection.js";
import { QuietHoursSection } from "../components/QuietHoursSection.js";

/** /preferencias: this browser's channel choice, bigger than the bell's menu and explained. */
export function PreferencesPage() {
  const { t } = useTranslation();
  return (
    <Container maxWidth="sm" sx={{ py: { xs: 3, sm: 6 } }}>
      <Stack spacing={3}>
        <div>
          <Typography variant="h4" component="h1" gutterBottom sx={{ fontWeight: 600, fontSize: { xs: "1.75rem", sm: "2.125rem" } }}>
            {t("preferences.title")}
          </Typography>
          <Typography color="text.secondary">{t("preferences.lead")}</Typography>
        </div>
        <PreferencesBody />
        <PrivacySection />
      </Stack>
    </Container>
  );
}

function PreferencesBody() {
  const { t } = useTranslation();
  const { state, busy, toggle } = useSino();
  if (state === "checking") return <CircularProgress aria-label={t("app.home.status.checking")} />;
  // No bell here, or the browser blocks it: the status says why, and how to unblock.
  if (state === "hidden" || state === "denied") return <PushStatus />;
  if (state === "off") {
    return (
      <Alert
        severity="info"
        variant="outlined"
        data-testid="preferences-off"
        action={
          <Button color="inherit" variant="outlined" onClick={() => void toggle()} disabled={busy} loading={busy}>
            {t("preferences.turnOn")}
          </Button>
        }
        sx={{ alignItems: "center", flexWrap: { xs: "wrap", sm: "nowrap" }, "& .MuiAlert-action": { ml: { xs: 0, sm: "auto" }, pl: { xs: 0, sm: 2 } } }}
      >
        <AlertTitle>{t("preferences.offTitle")}</AlertTitle>
        {t("preferences.offText")}
      </Alert>
    );
  }
  return (
    <>
      <ChoiceCard />
      <Card variant="outlined">
        <CardContent>
          <QuietHoursSection />
        </CardContent>
      </Card>
    </>
  );
}

function ChoiceCard() {
  const { t } = useTranslation();
  const choice = useChannelChoice();
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack spacing={2}>
          {choice.loading === "error" && (
            <Alert
              severity="error"
              role="alert"
              action={
                <Button color="inherit" size="small" onClick={choice.retry}>
                  {t("preferences.retry")}
                </Button>
              }
            >
              {t("preferences.loadFailed")}
            </Alert>
          )}
          {choice.loading !== "error" && choice.available === null && (
            <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <CircularProgress size={20} />
              <Typography>{t("preferences.loading")}</Typography>
            </Stack>
          )}
          {choice.available !== null && choice.available.length === 0 && <Typography>{t("preferences.noChannels")}</Typography>}
          {choice.available !== null && choice.available.length > 0 && (
            <>
              <ChannelChecklist channels={choice.available} selected={choice.draft} onToggle={choice.toggle} disabled={choice.saving} />
              <Typography variant="body2" color="text.secondary">
                {t("preferences.everyoneNote")}
              </Typography>
              <ChannelChoiceStatus choice={choice} />
              <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
                <SaveButton choice={choice} size="large" />
              </Stack>
            </>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
