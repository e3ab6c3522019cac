import { useState } from "react";
import { useTranslation } from "react-i18next";
import Dialog from "@mui/material/Dialog";
import TextField from "@mui/material/TextField";
import { SITE_ORIGIN_MAX_LENGTH, normaliseSiteOrigin, type Site } from "../../../shared/api/sites.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { errorText } from "../api/error-text.js";
import { DialogForm } from "../components/FormDialog.js";
import { FormError } from "../components/FormFields.js";

export interface SiteDialogProps {
  open: boolean;
  create: (origin: string) => Promise<Site>;
  onClose: () => void;
  onCreated: (site: Site) => void;
}

/** Registers a site: its origin, checked here with the server's own rules before it is sent. */
export function SiteDialog({ open, create, onClose, onCreated }: SiteDialogProps) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="site-dialog-title">
      {/* Remounted per opening, so a new form never shows the last one's text. */}
      {open && <SiteForm create={create} onClose={onClose} onCreated={onCreated} />}
    </Dialog>
  );
}

function SiteForm({ create, onClose, onCreated }: Omit<SiteDialogProps, "open">) {
  const { t } = useTranslation();
  const [origin, setOrigin] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setFormError(null);
    const checked = normaliseSiteOrigin(origin);
    if (!checked.ok) {
      setFieldError(t(`errors.${checked.code}`));
      return;
    }
    setFieldError(null);
    setBusy(true);
    try {
      onCreated(await create(checked.origin));
    } catch (error) {
      setBusy(false);
      if (isDashboardApiError(error) && error.field === "origin") setFieldError(errorText(t, error));
      else setFormError(errorText(t, error));
    }
  };

  return (
    <DialogForm titleId="site-dialog-title" title={t("sites.createTitle")} busy={busy} submitLabel={t("sites.create")} onSubmit={submit} onCancel={onClose}>
      <TextField
        label={t("sites.fields.origin")}
        value={origin}
        required
        autoFocus
        fullWidth
        type="url"
        placeholder="https://www.exemplo.com.br"
        onChange={(event) => setOrigin(event.target.value)}
        error={fieldError !== null}
        helperText={fieldError ?? t("sites.fields.originHint")}
        slotProps={{ htmlInput: { maxLength: SITE_ORIGIN_MAX_LENGTH, autoCapitalize: "none", spellCheck: false } }}
        sx={{ mt: 1 }}
      />
      <FormError error={formError} sx={{ mt: 2 }} />
    </DialogForm>
  );
}
