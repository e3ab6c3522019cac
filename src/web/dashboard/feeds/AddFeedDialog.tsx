import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import type { Channel } from "../../../shared/api/channels.js";
import { FEED_MODES, type Feed } from "../../../shared/api/feeds.js";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { FormDialog } from "../components/FormDialog.js";
import { FormFields } from "../components/FormFields.js";
import { useDashboardServices } from "../services.js";

const EVERYONE = "";

/** Adds a feed: its URL, who it goes to (a channel or everyone), how (automatic or drafts) and how often. */
export function AddFeedDialog({
  open,
  minIntervalSeconds,
  defaultIntervalSeconds,
  onClose,
  onCreated,
}: {
  open: boolean;
  minIntervalSeconds: number;
  defaultIntervalSeconds: number;
  onClose: () => void;
  onCreated: (feed: Feed) => void;
}) {
  const { t } = useTranslation();
  const { feeds: api, audience } = useDashboardServices();
  const [url, setUrl] = useState("");
  const [channel, setChannel] = useState(EVERYONE);
  const [mode, setMode] = useState<Feed["mode"]>("auto");
  /** Null until edited: the server's default interval (known once the list loaded) shows. */
  const [editedMinutes, setMinutes] = useState<string | null>(null);
  const minutes = editedMinutes ?? String(Math.round(defaultIntervalSeconds / 60));
  const [channels, setChannels] = useState<Channel[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    audience.listChannels().then(
      (list) => setChannels(list.filter((c) => !c.archived)),
      () => setChannels([]),
    );
  }, [open, audience]);

  const close = () => {
    setUrl("");
    setChannel(EVERYONE);
    setMode("auto");
    setMinutes(null);
    setFieldErrors({});
    setFormError(null);
    onClose();
  };

  const submit = async () => {
    const errors: Record<string, string> = {};
    if (url.trim() === "") errors.url = t("errors.feed_url_invalid");
    const seconds = Math.round(Number(minutes) * 60);
    if (!Number.isFinite(seconds) || seconds < minIntervalSeconds) errors.intervalSeconds = t("errors.feed_interval_invalid");
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    setFormError(null);
    try {
      const feed = await api.createFeed({ url: url.trim(), mode, channel: channel === EVERYONE ? null : channel, intervalSeconds: seconds });
      onCreated(feed);
      setBusy(false);
      close();
    } catch (error) {
      setBusy(false);
      if (isDashboardApiError(error) && error.field !== undefined && ["url", "channel", "intervalSeconds", "mode"].includes(error.field)) {
        setFieldErrors({ [error.field]: errorText(t, error) });
      } else setFormError(errorText(t, error));
    }
  };

  return (
    <FormDialog
      open={open}
      onClose={close}
      titleId="add-feed-title"
      title={t("feeds.form.title")}
      busy={busy}
      submitLabel={t("feeds.form.submit")}
      cancelLabel={t("feeds.form.cancel")}
      onSubmit={submit}
    >
      <FormFields error={formError}>
        <TextField
          label={t("feeds.form.url")}
          name="url"
          type="url"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            setFieldErrors((f) => ({ ...f, url: "" }));
          }}
          error={Boolean(fieldErrors.url)}
          helperText={fieldErrors.url || t("feeds.form.urlHelp")}
          required
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { spellCheck: false, inputMode: "url" } }}
        />
        <TextField
          select
          label={t("feeds.form.channel")}
          name="channel"
          value={channel}
          onChange={(e) => setChannel(e.target.value)}
          error={Boolean(fieldErrors.channel)}
          {...(fieldErrors.channel ? { helperText: fieldErrors.channel } : {})}
          fullWidth
        >
          <MenuItem value={EVERYONE}>{t("feeds.page.everyone")}</MenuItem>
          {channels.map((c) => (
            <MenuItem key={c.id} value={c.slug}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <FormControl component="fieldset">
          <FormLabel component="legend">{t("feeds.form.mode")}</FormLabel>
          <RadioGroup name="mode" value={mode} onChange={(_e, value) => setMode(value as Feed["mode"])}>
            {FEED_MODES.map((m) => (
              <FormControlLabel key={m} value={m} control={<Radio />} label={t(`feeds.modes.${m}`)} />
            ))}
          </RadioGroup>
        </FormControl>
        <TextField
          label={t("feeds.form.interval")}
          name="interval"
          type="number"
          value={minutes}
          onChange={(e) => {
            setMinutes(e.target.value);
            setFieldErrors((f) => ({ ...f, intervalSeconds: "" }));
          }}
          error={Boolean(fieldErrors.intervalSeconds)}
          helperText={fieldErrors.intervalSeconds || t("feeds.form.intervalHelp", { min: Math.ceil(minIntervalSeconds / 60) })}
          slotProps={{ htmlInput: { min: Math.ceil(minIntervalSeconds / 60), max: 1440, step: 1 } }}
        />
      </FormFields>
    </FormDialog>
  );
}
