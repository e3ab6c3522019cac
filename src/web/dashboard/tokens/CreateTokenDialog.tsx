import { useState } from "react";
import { useTranslation } from "react-i18next";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { TOKEN_NAME_MAX_LENGTH } from "../../../shared/api/tokens.js";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import type { ApiToken, TokenScope } from "../api/types.js";
import { DialogForm } from "../components/FormDialog.js";
import { FormFields } from "../components/FormFields.js";
import { SecretOnceDialog } from "../components/SecretOnceDialog.js";
import { useFormFields } from "../hooks/useFormFields.js";
import { useDashboardServices } from "../services.js";

/**
 * Creates a token, then shows its secret ONCE (the server keeps only a hash): copy button, and a
 * warning that closing the dialog loses it for good.
 */
export function CreateTokenDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (token: ApiToken) => void }) {
  const { t } = useTranslation();
  const { api } = useDashboardServices();
  const form = useFormFields({ name: "" });
  const [scope, setScope] = useState<TokenScope>("publish");
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    form.reset();
    setScope("publish");
    setFormError(null);
    setSecret(null);
    onClose();
  };

  const submit = async () => {
    const trimmed = form.values.name.trim();
    if (trimmed === "") return form.setErrors({ name: t("errors.name_required") });
    if (trimmed.length > TOKEN_NAME_MAX_LENGTH) return form.setErrors({ name: t("errors.name_too_long") });
    setBusy(true);
    setFormError(null);
    try {
      const created = await api.createToken({ name: trimmed, scope });
      setSecret(created.secret);
      onCreated(created.token);
    } catch (error) {
      if (isDashboardApiError(error) && error.field === "name") form.setErrors({ name: errorText(t, error) });
      else setFormError(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SecretOnceDialog
      open={open}
      titleId="create-token-title"
      secret={secret}
      testId="token-secret"
      texts={{
        title: t("dashboard.tokens.createdTitle"),
        onceTitle: t("dashboard.tokens.onceTitle"),
        onceText: t("dashboard.tokens.onceText"),
        label: t("dashboard.tokens.secret"),
        copy: t("dashboard.tokens.copy"),
        copied: t("dashboard.tokens.copied"),
        copyFailed: t("dashboard.tokens.copyFailed"),
        done: t("dashboard.tokens.done"),
      }}
      onClose={close}
    >
      <DialogForm titleId="create-token-title" title={t("dashboard.tokens.createTitle")} busy={busy} submitLabel={t("dashboard.tokens.create")} onSubmit={submit} onCancel={close}>
        <FormFields error={formError}>
          <TextField label={t("dashboard.tokens.name")} {...form.bind("name", t("dashboard.tokens.nameHint"))} required fullWidth autoFocus />
          <TextField select label={t("dashboard.tokens.scope")} name="scope" value={scope} onChange={(event) => setScope(event.target.value as TokenScope)} helperText={t(`dashboard.tokens.scopes.${scope}Hint`)} fullWidth>
            <MenuItem value="publish">{t("dashboard.tokens.scopes.publish")}</MenuItem>
            <MenuItem value="admin">{t("dashboard.tokens.scopes.admin")}</MenuItem>
          </TextField>
        </FormFields>
      </DialogForm>
    </SecretOnceDialog>
  );
}
