import { useTranslation } from "react-i18next";
import { Link as RouterLink, useSearchParams } from "react-router";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Container from "@mui/material/Container";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useEffect } from "react";
import { useSino } from "@sino/react";
import { NoticeCard } from "../notices/NoticeCard.js";
import { NOTICES_POLL_MS, useNotices } from "../notices/useNotices.js";
import { PushStatus } from "../components/PushStatus.js";
import { useApi } from "../hooks/useApi.js";
import { useAppDispatch, useAppSelector } from "../hooks/useAppStore.js";
import { useNow } from "../hooks/useNow.js";
import { loadChannels } from "../channels/channels-thunks.js";
import NotificationsActiveIcon from "@mui/icons-material/NotificationsActive";
import NotificationsOffOutlinedIcon from "@mui/icons-material/NotificationsOffOutlined";

/** The filter lives in the address (`/?canal=obras`), so a filtered list can be shared and reloaded. */
const CHANNEL_PARAM = "canal";

/** Avisos, the public home page: what was sent, newest first, live; and where this browser stands. */
export function HomePage() {
  const { t } = useTranslation();
  const { state } = useSino();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
      <Stack spacing={3}>
        <ToggleButton />
        <PushStatus
          action={
            state === "on" ? (
              <Button component={RouterLink} to="/preferencias" color="inherit" size="small" sx={{ whiteSpace: "nowrap" }}>
                {t("notices.choose")}
              </Button>
            ) : undefined
          }
        />
        {state === "off" && <HowItWorks />}
        <Notices />
      </Stack>
    </Container>
  );
}

/**
 * A plain button that does what the bell does, for visitors who do not spot the icon in the
 * corner; hidden where the bell is (no messaging here).
 */
function ToggleButton() {
  const { t } = useTranslation();
  const { state, busy, toggle } = useSino();
  if (state === "checking" || state === "hidden") return null;
  const on = state === "on";
  return (
    <Button
      variant={on ? "outlined" : "contained"}
      size="large"
      startIcon={on ? <NotificationsOffOutlinedIcon /> : <NotificationsActiveIcon />}
      loading={busy}
      onClick={() => void toggle()}
      data-testid="home-toggle"
      sx={{ alignSelf: { xs: "stretch", sm: "flex-start" } }}
    >
      {on ? t("app.home.disableButton") : t("app.home.enableButton")}
    </Button>
  );
}

function Notices() {
  const { t } = useTranslation();
  const api = useApi();
  const now = useNow();
  const dispatch = useAppDispatch();
  const channels = useAppSelector((state) => state.channels.available);
  const [params, setParams] = useSearchParams();
  const channel = params.get(CHANNEL_PARAM);
  const view = useNotices(api, channel);

  useEffect(() => {
    void dispatch(loadChannels());
  }, [dispatch]);

  const choose = (slug: string | null) => {
    setParams(slug ? { [CHANNEL_PARAM]: slug } : {}, { replace: true });
  };

  return (
    <Stack spacing={2} component="section" aria-labelledby="notices-title">
      <div>
        <Typography id="notices-title" variant="h4" component="h1" gutterBottom sx={{ fontWeight: 600, fontSize: { xs: "1.75rem", sm: "2.125rem" } }}>
          {t("notices.title")}
        </Typography>
        <Typography color="text.secondary">{t("notices.lead")}</Typography>
        {view.polling && (
          <Typography variant="body2" color="text.secondary" role="status" data-testid="notices-polling" sx={{ mt: 1 }}>
            {t("notices.polling", { seconds: NOTICES_POLL_MS / 1000 })}
          </Typography>
        )}
      </div>
      {channels !== null && channels.length > 0 && (
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          role="group"
          aria-label={t("notices.filterLabel")}
          data-testid="channel-filter"
          sx={{ flexWrap: "wrap" }}
        >
          <Chip label={t("notices.allChannels")} color={channel === null ? "primary" : "default"} onClick={() => choose(null)} aria-pressed={channel === null} />
          {channels.map((c) => (
            <Chip
              key={c.slug}
              label={c.name}
              color={channel === c.slug ? "primary" : "default"}
              onClick={() => choose(c.slug)}
              aria-pressed={channel === c.slug}
              data-slug={c.slug}
            />
          ))}
        </Stack>
      )}
      {view.status === "loading" && <NoticeSkeletons />}
      {view.status === "error" && (
        <Alert
          severity="error"
          role="alert"
          action={
            <Button color="inherit" size="small" onClick={view.retry}>
              {t("notices.retry")}
            </Button>
          }
        >
          {t("notices.loadFailed")}
        </Alert>
      )}
      {view.status === "ready" && view.notices.length === 0 && (
        <Card variant="outlined" data-testid="notices-empty">
          <CardContent sx={{ textAlign: "center", py: 5 }}>
            <Typography variant="h6" component="h2">
              {t("notices.emptyTitle")}
            </Typography>
            <Typography color="text.secondary">{channel ? t("notices.emptyChannelText") : t("notices.emptyText")}</Typography>
          </CardContent>
        </Card>
      )}
      {view.status === "ready" && view.notices.length > 0 && (
        <Stack spacing={2} aria-label={t("notices.listLabel")} aria-live="polite" data-testid="notices">
          {view.notices.map((notice) => (
            <NoticeCard key={notice.id} notice={notice} now={now} origin={window.location.origin} fresh={view.live.has(notice.id)} />
          ))}
        </Stack>
      )}
      {view.status === "ready" && view.moreFailed && (
        <Alert severity="error" role="alert">
          {t("notices.loadMoreFailed")}
        </Alert>
      )}
      {view.status === "ready" && view.hasMore && (
        <Button variant="outlined" onClick={view.loadMore} loading={view.loadingMore} sx={{ alignSelf: "center" }}>
          {t("notices.loadMore")}
        </Button>
      )}
      {view.status === "ready" && !view.hasMore && view.notices.length > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: "center" }}>
          {t("notices.end")}
        </Typography>
      )}
    </Stack>
  );
}

function NoticeSkeletons() {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} aria-busy aria-label={t("notices.listLabel")}>
      {[0, 1, 2].map((i) => (
        <Card key={i} variant="outlined">
          <CardContent>
            <Skeleton width="60%" height={28} />
            <Skeleton width="25%" />
            <Skeleton />
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}

/** The bell's steps, shown while it is off (helper B's explanation, kept for newcomers). */
function HowItWorks() {
  const { t } = useTranslation();
  const steps = [t("app.home.step1"), t("app.home.step2"), t("app.home.step3")];
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" component="h2">
          {t("app.home.title")}
        </Typography>
        <Typography color="text.secondary">{t("app.home.lead")}</Typography>
        <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
          {t("app.home.stepsTitle")}
        </Typography>
        <List dense>
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
