import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useSino } from "@sino/react";

/**
 * The subscriber's own quiet hours on Sino's public pages ("Não me avise entre 22:00 e 07:00"),
 * the same texts and the same client calls as the embedded bell's panel (src/embed/quiet-hours.ts).
 */
export function QuietHoursSection() {
  const { t } = useTranslation();
  const { quietHours, setQuietHours, state } = useSino();
  const [on, setOn] = useState(false);
  const [from, setFrom] = useState("22:00");
  const [to, setTo] = useState("07:00");
  const [status, setStatus] = useState("");
  const [saving, setSaving] = useState(false);

  const show = (range: string | null) => {
    setOn(range !== null);
    const [start = "22:00", end = "07:00"] = range?.split("-") ?? [];
    setFrom(start);
    setTo(end);
  };

  useEffect(() => {
    if (state !== "on") return;
    let live = true;
    quietHours().then(
      (range) => live && show(range),
      () => live && show(null),
    );
    return () => {
      live = false;
    };
  }, [quietHours, state]);

  const save = async () => {
    setSaving(true);
    try {
      const stored = await setQuietHours(on ? `${from}-${to}` : null);
      show(stored);
      setStatus(stored === null ? t("embed.quietHours.cleared") : t("embed.quietHours.saved", { from, to }));
    } catch (error) {
      setStatus(t((error as { code?: string }).code === "quiet_hours_invalid" ? "embed.quietHours.invalid" : "embed.quietHours.saveFailed"));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box component="section" aria-labelledby="quiet-hours-title" data-testid="quiet-hours">
      <Typography variant="h6" component="h2" id="quiet-hours-title" gutterBottom>
        {t("embed.quietHours.title")}
      </Typography>
      <FormControlLabel control={<Checkbox checked={on} onChange={(event) => setOn(event.target.checked)} slotProps={{ input: { "data-testid": "quiet-on" } as object }} />} label={t("embed.quietHours.enable")} />
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", my: 1 }}>
        <TextField type="time" size="small" disabled={!on} value={from} onChange={(event) => setFrom(event.target.value)} label={t("embed.quietHours.from")} slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "quiet-from" } }} />
        <Typography>{t("embed.quietHours.and")}</Typography>
        <TextField type="time" size="small" disabled={!on} value={to} onChange={(event) => setTo(event.target.value)} label={t("embed.quietHours.to")} slotProps={{ inputLabel: { shrink: true }, htmlInput: { "data-testid": "quiet-to" } }} />
      </Stack>
      <Typography role="status" aria-live="polite" variant="body2" data-testid="quiet-status" sx={{ minHeight: "1.5em" }}>
        {status}
      </Typography>
      <Button variant="outlined" onClick={() => void save()} loading={saving} data-testid="quiet-save">
        {t("embed.quietHours.save")}
      </Button>
    </Box>
  );
}
