import { useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import ContentCopy from "@mui/icons-material/ContentCopy";
import Check from "@mui/icons-material/Check";
import type { WebhookEventType } from "../../../shared/api/webhook-events.js";
import { WEBHOOK_DESCRIPTION_MAX_LENGTH, WEBHOOK_SUBSCRIBABLE_EVENTS, type Webhook } from "../../../shared/api/webhooks.js";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { useDashboardServices } from "../services.js";

const MONOSPACE = "ui-monospace, SFMono-Regular, Menlo, monospace";

/**
 * Registers a webhook, then shows its signing secret ONCE (the receiver needs it to verify
 * signatures; the Painel never shows it again): copy button, and closing needs a deliberate click.
 */
export function CreateWebhookDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (webhook: Webhook) => void }) {
  const { t } = useTranslation();
  const { webhooks: api } = useDashboardServices();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<ReadonlySet<WebhookEventType>>(new Set());
  const [urlError, setUrlError] = useState<string | null>(null);
  const [eventsError, setEventsError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);

  const reset = () => {
    setUrl("");
    setDescription("");
    setEvents(new Set());
    setUrlError(null);
    setEventsError(null);
    setFormError(null);
    setSecret(null);
    setCopied(null);
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const toggle = (event: WebhookEventType, checked: boolean) => {
    const next = new Set(events);
    if (checked) next.add(event);
    else next.delete(event);
    setEvents(next);
    setEventsError(null);
  };

  const submit = async (submitEvent: FormEvent) => {
    submitEvent.preventDefault();
    if (url.trim() === "") return setUrlError(t("errors.webhook_url_invalid"));
    if (events.size === 0) return setEventsError(t("errors.webhook_events_invalid"));
    setBusy(true);
    setFormError(null);
    try {
      const created = await api.createWebhook({ url: url.trim(), description, events: [...events] });
      setSecret(created.secret);
      onCreated(created.webhook);
    } catch (error) {
      if (isDashboardApiError(error) && error.field === "url") setUrlError(errorText(t, error));
      else if (isDashboardApiError(error) && error.field === "events") setEventsError(errorText(t, error));
      else setFormError(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (secret === null) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      // No clipboard permission (some browsers, http): the field is selected for a manual copy.
      setCopied("failed");
    }
  };

  return (
    <Dialog
      open={open}
      onClose={(_event, reason) => (secret !== null && reason === "backdropClick" ? undefined : close())}
      aria-labelledby="create-webhook-title"
      maxWidth="sm"
      fullWidth
    >
      {secret === null ? (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <DialogTitle id="create-webhook-title">{t("webhooks.createTitle")}</DialogTitle>
          <DialogContent>
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              {formError && (
                <Alert severity="error" role="alert">
                  {formError}
                </Alert>
              )}
              <TextField
                label={t("webhooks.url")}
                name="url"
                type="url"
                value={url}
                onChange={(event) => {
                  setUrl(event.target.value);
                  setUrlError(null);
                }}
                error={urlError !== null}
                helperText={urlError ?? t("webhooks.urlHint")}
                required
                fullWidth
                autoFocus
                slotProps={{ htmlInput: { spellCheck: false, inputMode: "url" } }}
              />
              <TextField
                label={t("webhooks.description")}
                name="description"
                value={description}
                onChange={(event) => setDescription(event.target.value)}
                helperText={t("webhooks.descriptionHint")}
                fullWidth
                slotProps={{ htmlInput: { maxLength: WEBHOOK_DESCRIPTION_MAX_LENGTH } }}
              />
              <FormControl component="fieldset" error={eventsError !== null} required>
                <FormLabel component="legend">{t("webhooks.eventsLegend")}</FormLabel>
                <FormGroup>
                  {WEBHOOK_SUBSCRIBABLE_EVENTS.map((event) => (
                    <FormControlLabel
                      key={event}
                      control={<Checkbox checked={events.has(event)} onChange={(_e, checked) => toggle(event, checked)} name="events" value={event} />}
                      label={t(`webhooks.events.${event}`)}
                    />
                  ))}
                </FormGroup>
                <FormHelperText>{eventsError ?? t("webhooks.eventsHint")}</FormHelperText>
              </FormControl>
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={close} disabled={busy}>
              {t("dashboard.common.cancel")}
            </Button>
            <Button type="submit" variant="contained" loading={busy}>
              {t("webhooks.create")}
            </Button>
          </DialogActions>
        </form>
      ) : (
        <>
          <DialogTitle id="create-webhook-title">{t("webhooks.createdTitle")}</DialogTitle>
          <DialogContent>
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              <Alert severity="warning">
                <AlertTitle>{t("webhooks.onceTitle")}</AlertTitle>
                {t("webhooks.onceText")}
              </Alert>
              <TextField
                label={t("webhooks.secret")}
                value={secret}
                fullWidth
                onFocus={(event) => event.target.select()}
                helperText={copied === "yes" ? t("webhooks.copied") : copied === "failed" ? t("webhooks.copyFailed") : undefined}
                slotProps={{
                  htmlInput: { readOnly: true, "data-testid": "webhook-secret", spellCheck: false, sx: { fontFamily: MONOSPACE } },
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <Tooltip title={copied === "yes" ? t("webhooks.copied") : t("webhooks.copy")}>
                          <IconButton aria-label={t("webhooks.copy")} onClick={() => void copy()} edge="end">
                            {copied === "yes" ? <Check color="success" /> : <ContentCopy />}
                          </IconButton>
                        </Tooltip>
                      </InputAdornment>
                    ),
                  },
                }}
              />
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button variant="contained" onClick={close}>
              {t("webhooks.done")}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
