import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { SavedSegment } from "../api/segments-api.js";
import { errorText } from "../api/error-text.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { SegmentEditor } from "../segments/SegmentEditor.js";
import { segmentCountText } from "../segments/segment-editor.js";
import type { SegmentChoice } from "./segment-choice.js";
import type { SegmentCountState } from "../segments/useSegmentCount.js";

export function SegmentAudience({
  value,
  onChange,
  count,
  error,
}: {
  value: SegmentChoice;
  onChange: (value: SegmentChoice) => void;
  /** The live count of the written expression. */
  count: SegmentCountState;
  /** Why the choice cannot be sent (none chosen, nothing written), shown beside the picker. */
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const { segments: api } = useDashboardServices();
  const { resource } = useResource(useCallback(() => api.listSegments(), [api]));
  const saved: SavedSegment[] = resource.status === "ready" ? resource.data : [];

  const hint = (() => {
    if (error !== undefined) return error;
    if (resource.status === "error") return errorText(t, resource.error);
    if (resource.status === "ready" && saved.length === 0) return t("segments.compose.noneSaved");
    const chosen = saved.find((segment) => segment.id === value.segmentId);
    if (chosen?.size) return t("segments.compose.savedSize", { size: segmentCountText(t, chosen.size) });
    return t("segments.compose.savedHint");
  })();

  return (
    <Stack spacing={2} data-testid="segment-audience">
      <FormControl>
        <FormLabel id="segment-source-label">{t("segments.compose.source")}</FormLabel>
        <RadioGroup row aria-labelledby="segment-source-label" name="segmentSource" value={value.source} onChange={(event) => onChange({ ...value, source: event.target.value === "written" ? "written" : "saved" })}>
          <FormControlLabel value="saved" control={<Radio />} label={t("segments.compose.saved")} />
          <FormControlLabel value="written" control={<Radio />} label={t("segments.compose.written")} />
        </RadioGroup>
      </FormControl>
      {value.source === "saved" ? (
        <TextField
          select
          name="segment"
          label={t("segments.compose.segment")}
          value={saved.some((segment) => segment.id === value.segmentId) ? value.segmentId : ""}
          onChange={(event) => onChange({ ...value, segmentId: event.target.value })}
          error={error !== undefined}
          helperText={hint}
          disabled={resource.status !== "ready" || saved.length === 0}
          fullWidth
          slotProps={{ formHelperText: { "aria-live": "polite" } as object }}
        >
          {saved.map((segment) => (
            <MenuItem key={segment.id} value={segment.id}>
              <ListItemText primary={segment.name} secondary={segment.expression} slotProps={{ secondary: { sx: { fontFamily: "monospace", overflowWrap: "anywhere", whiteSpace: "normal" } } }} />
            </MenuItem>
          ))}
        </TextField>
      ) : (
        <SegmentEditor value={value.draft} onChange={(draft) => onChange({ ...value, draft })} count={count} helpHeading="h2" />
      )}
    </Stack>
  );
}
