import { useState } from "react";
import { useTranslation } from "react-i18next";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { Channel } from "../../../shared/api/channels.js";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { DialogForm } from "../components/FormDialog.js";
import { FormError } from "../components/FormFields.js";
import { CHANNEL_FIELD_LIMITS, suggestSlug, validateChannelForm } from "./channel-form.js";
import type { ChannelFormErrors, ChannelFormValues } from "./channel-form.js";
import { useDashboardServices } from "../services.js";

/** Create a channel (`editing` null) or edit one (its slug stays as it is). */
export function ChannelDialog({ open, editing, onClose, onSaved }: { open: boolean; editing: Channel | null; onClose: () => void; onSaved: (channel: Channel) => void }) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="channel-dialog-title">
      {/* Remounted per opening, so a new form never shows the last one's text. */}
      {open && <ChannelForm editing={editing} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function ChannelForm({ editing, onClose, onSaved }: { editing: Channel | null; onClose: () => void; onSaved: (channel: Channel) => void }) {
  const { t } = useTranslation();
  const { audience: api } = useDashboardServices();
  const creating = editing === null;
  const [values, setValues] = useState<ChannelFormValues>({
    slug: editing?.slug ?? "",
    name: editing?.name ?? "",
    description: editing?.description ?? "",
    isDefault: editing?.isDefault ?? false,
  });
  const [slugTouched, setSlugTouched] = useState(false);
  const [errors, setErrors] = useState<ChannelFormErrors>({});
  const [serverError, setServerError] = useState<{ field?: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const found = validateChannelForm(values, creating);
    setErrors(found);
    setServerError(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const description = values.description.trim() === "" ? null : values.description.trim();
      const saved = creating
        ? await api.createChannel({ slug: values.slug, name: values.name.trim(), description, isDefault: values.isDefault })
        : await api.updateChannel(editing.id, { name: values.name.trim(), description, isDefault: values.isDefault });
      onSaved(saved);
    } catch (error) {
      setBusy(false);
      setServerError({ ...(isDashboardApiError(error) && error.field ? { field: error.field } : {}), text: errorText(t, error) });
    }
  };

  /** A field's error answered the text it had: once that text changes, the error goes with it. */
  const clearErrors = (...fields: Array<"slug" | "name" | "description">) => {
    setErrors((previous) => {
      const next = { ...previous };
      for (const field of fields) delete next[field as keyof ChannelFormErrors];
      return next;
    });
    setServerError((previous) => (previous?.field !== undefined && (fields as string[]).includes(previous.field) ? null : previous));
  };

  const fieldError = (field: "slug" | "name" | "description"): string | undefined => {
    const own = field === "description" ? undefined : errors[field];
    if (own) return t(own);
    return serverError?.field === field ? serverError.text : undefined;
  };

  return (
    <DialogForm
      titleId="channel-dialog-title"
      title={creating ? t("channels.createTitle") : t("channels.editTitle", { name: editing.name })}
      busy={busy}
      submitLabel={creating ? t("channels.create") : t("channels.save")}
      onSubmit={submit}
      onCancel={onClose}
    >
      <Stack spacing={2.5} sx={{ pt: 1 }}>
        <TextField
          label={t("channels.fields.name")}
          value={values.name}
          required
          autoFocus
          onChange={(event) => {
            const name = event.target.value;
            const slugFollows = creating && !slugTouched;
            setValues((v) => ({ ...v, name, slug: slugFollows ? suggestSlug(name) : v.slug }));
            if (slugFollows) clearErrors("name", "slug");
            else clearErrors("name");
          }}
          error={fieldError("name") !== undefined}
          helperText={fieldError("name")}
          slotProps={{ htmlInput: { maxLength: CHANNEL_FIELD_LIMITS.name } }}
        />
        <TextField
          label={t("channels.fields.slug")}
          value={values.slug}
          required={creating}
          disabled={!creating}
          onChange={(event) => {
            setSlugTouched(true);
            setValues((v) => ({ ...v, slug: event.target.value.trim() }));
            clearErrors("slug");
          }}
          error={fieldError("slug") !== undefined}
          helperText={fieldError("slug") ?? t("channels.fields.slugHint", { example: values.slug || "obras" })}
          slotProps={{ htmlInput: { maxLength: CHANNEL_FIELD_LIMITS.slug, autoCapitalize: "none", spellCheck: false } }}
        />
        <TextField
          label={t("channels.fields.description")}
          value={values.description}
          multiline
          minRows={2}
          onChange={(event) => {
            setValues((v) => ({ ...v, description: event.target.value }));
            clearErrors("description");
          }}
          error={fieldError("description") !== undefined}
          helperText={fieldError("description") ?? t("channels.fields.descriptionHint")}
          slotProps={{ htmlInput: { maxLength: CHANNEL_FIELD_LIMITS.description } }}
        />
        <FormControlLabel
          control={<Checkbox checked={values.isDefault} onChange={(event) => setValues((v) => ({ ...v, isDefault: event.target.checked }))} />}
          label={t("channels.fields.isDefault")}
        />
        <FormError error={serverError && !["slug", "name", "description"].includes(serverError.field ?? "") ? serverError.text : null} />
      </Stack>
    </DialogForm>
  );
}
