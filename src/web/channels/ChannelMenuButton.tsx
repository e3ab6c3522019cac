import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Popover from "@mui/material/Popover";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import ArrowDropDownIcon from "@mui/icons-material/ArrowDropDown";
import { ChannelChecklist } from "./ChannelChecklist.js";
import { ChannelChoiceStatus } from "./ChannelChoiceStatus.js";
import { useChannelChoice } from "./useChannelChoice.js";
import { OrganisationMark } from "../organisation/OrganisationMark.js";
import { useOrganisation } from "../organisation/organisation-context.js";
import type { ChannelChoice } from "./useChannelChoice.js";

/**
 * The small menu beside the bell (shown once it is on): the bell's own click stays on/off, as the
 * seed has it, and this arrow opens the channel choice.
 */
export function ChannelMenuButton() {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = anchor !== null;
  const label = t("preferences.menuButton");
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={open ? "channel-menu" : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
          size="small"
          sx={{ ml: -1 }}
          data-testid="channel-menu-button"
        >
          <ArrowDropDownIcon />
        </IconButton>
      </Tooltip>
      <Popover
        id="channel-menu"
        open={open}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ paper: { role: "dialog", "aria-labelledby": "channel-menu-title", sx: { width: 340, maxWidth: "calc(100vw - 24px)" } } }}
      >
        {open && <ChannelMenuContent onNavigate={() => setAnchor(null)} />}
      </Popover>
    </>
  );
}

function ChannelMenuContent({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const choice = useChannelChoice();
  const { organisation } = useOrganisation();
  return (
    <Stack spacing={1.5} sx={{ p: 2 }}>
      {/* Whose notices these are: the organisation's identity heads the bell's panel, as in the embed's. */}
      {organisation !== null && (organisation.name !== null || organisation.logoUrl !== null) && (
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", color: "primary.main" }} data-testid="panel-organisation">
          <OrganisationMark size={24} />
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {organisation.name ?? t("app.name")}
          </Typography>
        </Stack>
      )}
      <Typography id="channel-menu-title" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        {t("preferences.menuTitle")}
      </Typography>
      <ChoiceBody choice={choice} />
      <Stack direction="row" spacing={1} sx={{ justifyContent: "space-between", alignItems: "center" }}>
        <Button component={RouterLink} to="/preferencias" onClick={onNavigate} size="small">
          {t("preferences.menuMore")}
        </Button>
        {choice.available !== null && choice.available.length > 0 && <SaveButton choice={choice} />}
      </Stack>
    </Stack>
  );
}

function ChoiceBody({ choice }: { choice: ChannelChoice }) {
  const { t } = useTranslation();
  if (choice.loading === "error") {
    return (
      <Box>
        <Typography variant="body2" color="error" role="alert">
          {t("preferences.loadFailed")}
        </Typography>
        <Button size="small" onClick={choice.retry}>
          {t("preferences.retry")}
        </Button>
      </Box>
    );
  }
  if (choice.available === null) {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <CircularProgress size={18} />
        <Typography variant="body2">{t("preferences.loading")}</Typography>
      </Stack>
    );
  }
  if (choice.available.length === 0) return <Typography variant="body2">{t("preferences.noChannels")}</Typography>;
  return (
    <>
      <Box sx={{ maxHeight: "50vh", overflowY: "auto" }}>
        <ChannelChecklist channels={choice.available} selected={choice.draft} onToggle={choice.toggle} disabled={choice.saving} dense />
      </Box>
      <ChannelChoiceStatus choice={choice} />
    </>
  );
}

export function SaveButton({ choice, size = "small" }: { choice: ChannelChoice; size?: "small" | "medium" | "large" }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="contained"
      size={size}
      onClick={choice.save}
      disabled={!choice.dirty || choice.overLimit || choice.saving}
      loading={choice.saving}
      data-testid="channels-save"
    >
      {t("preferences.save")}
    </Button>
  );
}
