import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import Typography from "@mui/material/Typography";
import type { PublicChannel } from "../../shared/api/channels.js";

export interface ChannelChecklistProps {
  channels: PublicChannel[];
  selected: string[];
  onToggle: (slug: string) => void;
  disabled?: boolean;
  /** The menu's compact rows (descriptions cut to two lines); the preferences page shows them in full. */
  dense?: boolean;
}

/** One checkbox per active channel, labelled by its name (and description). */
export function ChannelChecklist({ channels, selected, onToggle, disabled = false, dense = false }: ChannelChecklistProps) {
  const { t } = useTranslation();
  return (
    <FormGroup aria-label={t("preferences.listLabel")} data-testid="channel-checklist" sx={{ gap: dense ? 0.5 : 1.5 }}>
      {channels.map((channel) => (
        <FormControlLabel
          key={channel.slug}
          disabled={disabled}
          sx={{ alignItems: "flex-start", mx: 0 }}
          control={
            <Checkbox
              checked={selected.includes(channel.slug)}
              onChange={() => onToggle(channel.slug)}
              size={dense ? "small" : "medium"}
              slotProps={{ input: { "aria-label": channel.name } }}
              data-slug={channel.slug}
              sx={{ mt: dense ? -0.5 : -0.75 }}
            />
          }
          label={
            <Box sx={{ minWidth: 0 }}>
              <Typography sx={{ fontWeight: 500, overflowWrap: "anywhere" }} variant={dense ? "body2" : "body1"}>
                {channel.name}
              </Typography>
              {channel.description && (
                <Typography
                  variant="body2"
                  color="text.secondary"
                  sx={
                    dense
                      ? { display: "-webkit-box", WebkitLineClamp: 2, WebkitBoxOrient: "vertical", overflow: "hidden", overflowWrap: "anywhere" }
                      : { overflowWrap: "anywhere" }
                  }
                >
                  {channel.description}
                </Typography>
              )}
            </Box>
          }
        />
      ))}
    </FormGroup>
  );
}
