import { useId, useState } from "react";
import type { ReactElement } from "react";
import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import Popover from "@mui/material/Popover";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import DarkModeOutlined from "@mui/icons-material/DarkModeOutlined";
import LightModeOutlined from "@mui/icons-material/LightModeOutlined";
import SettingsBrightnessOutlined from "@mui/icons-material/SettingsBrightnessOutlined";
import { COLOR_MODE_PREFERENCES } from "./color-mode-preference.js";
import type { ColorModePreference } from "./color-mode-preference.js";
import { useColorMode } from "./ColorModeProvider.js";

const ICONS: Record<ColorModePreference, ReactElement> = {
  system: <SettingsBrightnessOutlined />,
  light: <LightModeOutlined />,
  dark: <DarkModeOutlined />,
};

/**
 * The appearance button of the top bars. It opens a small dialog (as the bell's channel choice
 * does) with three radios, "Seguir o sistema", "Claro" and "Escuro": the arrow keys move between
 * them and each applies at once, so the page shows the choice while it is made; Esc closes.
 */
export function ColorModeMenu() {
  const { t } = useTranslation();
  const { preference, setPreference } = useColorMode();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const popoverId = useId();
  const titleId = useId();
  const label = t("app.colorMode.label", { mode: t(`app.colorMode.${preference}`) });

  return (
    <>
      {/* In place rather than portalled to <body>: there it would sit outside every landmark (axe "region"). */}
      <Tooltip title={t("app.colorMode.title")} slotProps={{ popper: { disablePortal: true } }}>
        <IconButton
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor !== null}
          aria-controls={anchor ? popoverId : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
          data-testid="color-mode-button"
          data-preference={preference}
        >
          {ICONS[preference]}
        </IconButton>
      </Tooltip>
      <Popover
        id={popoverId}
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ paper: { role: "dialog", "aria-labelledby": titleId, sx: { p: 2, minWidth: 220 } } }}
      >
        <Typography id={titleId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 0.5 }}>
          {t("app.colorMode.title")}
        </Typography>
        <RadioGroup aria-labelledby={titleId} value={preference} onChange={(event) => setPreference(event.target.value as ColorModePreference)}>
          {COLOR_MODE_PREFERENCES.map((option) => (
            <FormControlLabel
              key={option}
              value={option}
              // The checked radio takes the focus on opening, so the arrow keys start from the choice.
              control={<Radio autoFocus={option === preference} />}
              label={
                <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 1 }}>
                  <Box component="span" aria-hidden sx={{ display: "inline-flex", color: "text.secondary" }}>
                    {ICONS[option]}
                  </Box>
                  {t(`app.colorMode.${option}`)}
                </Box>
              }
            />
          ))}
        </RadioGroup>
      </Popover>
    </>
  );
}
