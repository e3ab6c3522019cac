import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { ComposeField, ComposeValues } from "./compose-form.js";

export interface ScheduleFieldsProps {
  values: Pick<ComposeValues, "when" | "date" | "time">;
  set: <K extends "when" | "date" | "time">(field: K, value: ComposeValues[K]) => void;
  errorOf: (field: ComposeField) => string | undefined;
  onBlur: (field: ComposeField) => void;
  /** Under the date and time: when it goes out, in the server's zone (or just the zone). */
  summary: string;
}

/** "Quando": now, or a date and time in the server's time zone, with what that moment is. */
export function ScheduleFields({ values, set, errorOf, onBlur, summary }: ScheduleFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <FormControl>
        <FormLabel id="when-label">{t("dashboard.compose.fields.when")}</FormLabel>
        <RadioGroup row aria-labelledby="when-label" name="when" value={values.when} onChange={(event) => set("when", event.target.value === "later" ? "later" : "now")}>
          <FormControlLabel value="now" control={<Radio />} label={t("dashboard.compose.when.now")} />
          <FormControlLabel value="later" control={<Radio />} label={t("dashboard.compose.when.later")} />
        </RadioGroup>
      </FormControl>
      {values.when === "later" && (
        <Box>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <TextField
              name="date"
              type="date"
              label={t("dashboard.compose.fields.date")}
              value={values.date}
              onChange={(event) => set("date", event.target.value)}
              onBlur={() => onBlur("date")}
              error={errorOf("date") !== undefined}
              helperText={errorOf("date")}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
            <TextField
              name="time"
              type="time"
              label={t("dashboard.compose.fields.time")}
              value={values.time}
              onChange={(event) => set("time", event.target.value)}
              onBlur={() => onBlur("time")}
              error={errorOf("time") !== undefined}
              helperText={errorOf("time")}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="schedule-summary">
            {summary}
          </Typography>
        </Box>
      )}
    </>
  );
}
