import { useId, useState } from "react";
import type { ReactElement } from "react";
import { useTranslation } from "react-i18next";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tooltip from "@mui/material/Tooltip";
import CheckIcon from "@mui/icons-material/Check";
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
 * The appearance button of the top bars: a menu of "Seguir o sistema", "Claro" and "Escuro", the
 * chosen one checked (menuitemradio, so screen readers say which). Its icon is the choice's.
 */
export function ColorModeMenu() {
  const { t } = useTranslation();
  const { preference, setPreference } = useColorMode();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const label = t("app.colorMode.label", { mode: t(`app.colorMode.${preference}`) });

  return (
    <>
      {/* In place rather than portalled to <body>: there it would sit outside every landmark (axe "region"). */}
      <Tooltip title={t("app.colorMode.title")} slotProps={{ popper: { disablePortal: true } }}>
        <IconButton
          aria-label={label}
          aria-haspopup="menu"
          aria-expanded={anchor !== null}
          aria-controls={anchor ? menuId : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
          data-testid="color-mode-button"
          data-preference={preference}
        >
          {ICONS[preference]}
        </IconButton>
      </Tooltip>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
        slotProps={{ list: { "aria-label": t("app.colorMode.title") } }}
      >
        {COLOR_MODE_PREFERENCES.map((option) => (
          <MenuItem
            key={option}
            role="menuitemradio"
            aria-checked={option === preference}
            selected={option === preference}
            onClick={() => {
              setPreference(option);
              setAnchor(null);
            }}
          >
            <ListItemIcon>{ICONS[option]}</ListItemIcon>
            <ListItemText primary={t(`app.colorMode.${option}`)} />
            {option === preference && <CheckIcon fontSize="small" sx={{ ml: 2 }} aria-hidden />}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
