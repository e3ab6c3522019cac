import { useState } from "react";
import { useTranslation } from "react-i18next";
import Checkbox from "@mui/material/Checkbox";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import TextField from "@mui/material/TextField";
import type { WebhookEventType } from "../../../shared/api/webhook-events.js";
import { WEBHOOK_DESCRIPTION_MAX_LENGTH, WEBHOOK_SUBSCRIBABLE_EVENTS, type Webhook } from "../../../shared/api/webhooks.js";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { DialogForm } from "../components/FormDialog.js";
import { FormFields } from "../components/FormFields.js";
import { SecretOnceDialog } from "../components/SecretOnceDialog.js";
import { useFormFields } from "../hooks/useFormFields.js";
import { useDashboardServices } from "../services.js";

/**
 * Registers a webhook, then shows its signing secret ONCE (the receiver needs it to verify
 * signatures; the Painel never shows it again): copy button, and closing needs a deliberate click.
 */
export function CreateWebhookDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (webhook: Webhook) => void }) {
  const { t } = useTranslation();
  const { webhooks: api } = useDashboardServices();
  const form = useFormFields({ url: "", description: "" });
  const [events, setEvents] = useState<ReadonlySet<WebhookEventType>>(new Set());
  const [eventsError, setEventsError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    form.reset();
    setEvents(new Set());
    setEventsError(null);
    setFormError(null);
    setSecret(null);
    onClose();
  };

  const toggle = (event: WebhookEventType, checked: boolean) => {
    const next = new Set(events);
    if (checked) next.add(event);
    else next.delete(event);
    setEvents(next);
    setEventsError(null);
  };

  const submit = async () => {
    const { url, description } = form.values;
    if (url.trim() === "") return form.setErrors({ url: t("errors.webhook_url_invalid") });
    if (events.size === 0) return setEventsError(t("errors.webhook_events_invalid"));
    setBusy(true);
    setFormError(null);
    try {
      const created = await api.createWebhook({ url: url.trim(), description, events: [...events] });
      setSecret(created.secret);
      onCreated(created.webhook);
    } catch (error) {
      if (isDashboardApiError(error) && error.field === "url") form.setErrors({ url: errorText(t, error) });
      else if (isDashboardApiError(error) && error.field === "events") setEventsError(errorText(t, error));
      else setFormError(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SecretOnceDialog
      open={open}
      titleId="create-webhook-title"
      secret={secret}
      testId="webhook-secret"
      texts={{
        title: t("webhooks.createdTitle"),
        onceTitle: t("webhooks.onceTitle"),
        onceText: t("webhooks.onceText"),
        label: t("webhooks.secret"),
        copy: t("webhooks.copy"),
        copied: t("webhooks.copied"),
        copyFailed: t("webhooks.copyFailed"),
        done: t("webhooks.done"),
      }}
      onClose={close}
    >
      <DialogForm titleId="create-webhook-title" title={t("webhooks.createTitle")} busy={busy} submitLabel={t("webhooks.create")} onSubmit={submit} onCancel={close}>
        <FormFields error={formError}>
          <TextField
            label={t("webhooks.url")}
            {...form.bind("url", t("webhooks.urlHint"))}
            type="url"
            required
            fullWidth
            autoFocus
            slotProps={{ htmlInput: { spellCheck: false, inputMode: "url" } }}
          />
          <TextField
            label={t("webhooks.description")}
            {...form.bind("description", t("webhooks.descriptionHint"))}
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
        </FormFields>
      </DialogForm>
    </SecretOnceDialog>
  );
}
