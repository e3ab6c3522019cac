import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import NotificationsActiveIcon from "@mui/icons-material/NotificationsActive";
import NotificationsOffOutlinedIcon from "@mui/icons-material/NotificationsOffOutlined";
import { ChannelMenuButton } from "../channels/ChannelMenuButton.js";
import { useAppDispatch, useAppSelector } from "../hooks/useAppStore.js";
import { togglePush } from "../state/push-thunks.js";
import { PushNoticeSnackbar } from "./PushNoticeSnackbar.js";

/**
 * The bell, as the original app showed it: hidden where messaging is unavailable, grey with
 * "Habilitar Notificações" while off, coloured with "Desabilitar Notificações" while a token is held.
 * Once on, an arrow beside it opens the channel choice; the bell's own click stays on/off, so the
 * one thing every visitor already knows keeps working the same way.
 */
export function PushBell() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { availability, token, busy } = useAppSelector((state) => state.push);
  if (availability !== "available") return null;

  const on = token !== null;
  const label = on ? t("bell.disable") : t("bell.enable");
  return (
    <>
      <Tooltip title={label}>
        {/* A disabled button fires no mouse events, so the tooltip needs a wrapper to anchor to. */}
        <Box component="span" sx={{ position: "relative", display: "inline-flex" }}>
          <IconButton
            aria-label={label}
            aria-pressed={on}
            aria-busy={busy}
            disabled={busy}
            data-state={on ? "on" : "off"}
            onClick={() => void dispatch(togglePush())}
            size="large"
            sx={{
              color: on ? "warning.main" : "grey.500",
              "&.Mui-disabled": { color: on ? "warning.light" : "grey.400" },
            }}
          >
            {on ? <NotificationsActiveIcon /> : <NotificationsOffOutlinedIcon />}
          </IconButton>
          {busy && (
            <CircularProgress
              size={44}
              thickness={2.5}
              aria-hidden
              sx={{ position: "absolute", top: 2, left: 2, color: "grey.400", pointerEvents: "none" }}
            />
          )}
        </Box>
      </Tooltip>
      {on && <ChannelMenuButton />}
      <PushNoticeSnackbar />
    </>
  );
}
