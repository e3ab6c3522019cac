import { useState } from "react";
import { useTranslation } from "react-i18next";
import DialogContentText from "@mui/material/DialogContentText";
import FormControlLabel from "@mui/material/FormControlLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { TEMPLATE_LIMITS } from "../../../shared/api/templates.js";
import type { Template } from "../api/templates-api.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { errorText } from "../api/error-text.js";
import { FormDialog } from "../components/FormDialog.js";
import { FormError } from "../components/FormFields.js";
import { useDashboardServices } from "../services.js";
import { templateRequestOf, type ComposeDraft } from "./compose-prefill.js";

/**
 * "Salvar como modelo": keeps the form's content (and its audience, when a template can hold it)
 * under a name — a new template, or the one the form was filled from, updated.
 */
export function SaveTemplateDialog({
  open,
  draft,
  from,
  onClose,
  onSaved,
}: {
  open: boolean;
  draft: ComposeDraft;
  /** The template the form came from: offered to be updated. */
  from: Template | null;
  onClose: () => void;
  onSaved: (template: Template, created: boolean) => void;
}) {
  const { t } = useTranslation();
  const { templates: api } = useDashboardServices();
  const [name, setName] = useState("");
  const [mode, setMode] = useState<"update" | "create">("create");
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Each opening starts afresh: reset while rendering, as React advises for a prop change.
  const [openedWith, setOpenedWith] = useState<{ open: boolean; from: Template | null }>({ open: false, from: null });
  if (openedWith.open !== open || openedWith.from !== from) {
    setOpenedWith({ open, from });
    if (open) {
      setName(from?.name ?? "");
      setMode(from === null ? "create" : "update");
      setNameError(null);
      setFormError(null);
    }
  }

  const submit = async () => {
    if (name.trim() === "") return setNameError(t("templates.dialog.nameRequired"));
    setBusy(true);
    setFormError(null);
    try {
      const request = templateRequestOf(name, draft);
      const saved = mode === "update" && from !== null ? await api.updateTemplate(from.id, request) : await api.createTemplate(request);
      onSaved(saved, mode === "create" || from === null);
      onClose();
    } catch (error) {
      if (isDashboardApiError(error) && error.field === "name") setNameError(errorText(t, error));
      else setFormError(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog open={open} onClose={onClose} titleId="save-template-title" title={t("templates.dialog.title")} busy={busy} submitLabel={t("templates.dialog.save")} onSubmit={submit}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <DialogContentText>{draft.target === "people" || (draft.target === "segment" && draft.segmentChoice.source === "written") ? t("templates.dialog.noAudience") : t("templates.dialog.text")}</DialogContentText>
        <FormError error={formError} />
        {from !== null && (
          <RadioGroup aria-label={t("templates.dialog.title")} name="templateMode" value={mode} onChange={(event) => setMode(event.target.value === "update" ? "update" : "create")}>
            <FormControlLabel value="update" control={<Radio />} label={t("templates.dialog.update", { name: from.name })} />
            <FormControlLabel value="create" control={<Radio />} label={t("templates.dialog.create")} />
          </RadioGroup>
        )}
        <TextField
          name="templateName"
          label={t("templates.dialog.name")}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(null);
          }}
          error={nameError !== null}
          helperText={nameError ?? t("templates.dialog.nameHint")}
          required
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { maxLength: TEMPLATE_LIMITS.name } }}
        />
      </Stack>
    </FormDialog>
  );
}
