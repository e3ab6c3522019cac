import { useId } from "react";
import { useTranslation } from "react-i18next";
import { useSino } from "@sino/react";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import NotificationsActiveIcon from "@mui/icons-material/NotificationsActive";
import NotificationsOffOutlinedIcon from "@mui/icons-material/NotificationsOffOutlined";
import { ChannelMenuButton } from "../channels/ChannelMenuButton.js";
import { PushNoticeSnackbar } from "./PushNoticeSnackbar.js";

/** Read by screen readers, not shown (the status line of the page says it in full). */
const VISUALLY_HIDDEN = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  clipPath: "inset(50%)",
  whiteSpace: "nowrap",
} as const;

const BLOCKED_DOT = {
  position: "absolute",
  right: 9,
  top: 9,
  width: 9,
  height: 9,
  borderRadius: "50%",
  bgcolor: "error.main",
  border: 2,
  borderColor: "background.paper",
} as const;

/**
 * The bell, as the original app showed it: hidden where messaging is unavailable, grey with
 * "Habilitar Notificações" while off, coloured with "Desabilitar Notificações" while a token is held.
 * While the browser blocks notifications it stays off, marked with a red dot and described as
 * blocked, as `<sino-bell>` is; a click then explains how to unblock. Once on, an arrow beside it
 * opens the channel choice; the bell's own click stays on/off, so the one thing every visitor
 * already knows keeps working the same way. Its state is @sino/react's, the client every site's bell runs.
 */
export function PushBell() {
  const { t } = useTranslation();
  const { state, busy, toggle } = useSino();
  const blockedId = useId();
  if (state === "checking" || state === "hidden") return null;

  const on = state === "on";
  const denied = state === "denied";
  const label = on ? t("bell.disable") : t("bell.enable");
  return (
    <>
      {/* In place rather than portalled to <body>: there it would sit outside every landmark (axe "region"). */}
      <Tooltip title={label} slotProps={{ popper: { disablePortal: true } }}>
        {/* A disabled button fires no mouse events, so the tooltip needs a wrapper to anchor to. */}
        <Box component="span" sx={{ position: "relative", display: "inline-flex" }}>
          <IconButton
            aria-label={label}
            aria-pressed={on}
            aria-busy={busy}
            aria-describedby={denied ? blockedId : undefined}
            disabled={busy}
            data-state={state}
            onClick={() => void toggle()}
            size="large"
            sx={{
              color: on ? "warning.main" : "grey.500",
              "&.Mui-disabled": { color: on ? "warning.light" : "grey.400" },
            }}
          >
            {on ? <NotificationsActiveIcon /> : <NotificationsOffOutlinedIcon />}
            {/* The embed's mark for a blocked bell (src/embed/styles.ts): a red dot on the icon. */}
            {denied && <Box component="span" aria-hidden sx={BLOCKED_DOT} />}
          </IconButton>
          {denied && (
            <Box component="span" id={blockedId} sx={VISUALLY_HIDDEN}>
              {t("embed.blockedStatus")}
            </Box>
          )}
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
