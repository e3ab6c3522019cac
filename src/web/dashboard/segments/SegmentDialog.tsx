import { useState } from "react";
import { useTranslation } from "react-i18next";
import TextField from "@mui/material/TextField";
import type { SavedSegment } from "../api/segments-api.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { errorText } from "../api/error-text.js";
import { FormDialog } from "../components/FormDialog.js";
import { FormFields } from "../components/FormFields.js";
import { useDashboardServices } from "../services.js";
import { SegmentEditor, refusalText } from "./SegmentEditor.js";
import { EMPTY_SEGMENT_DRAFT, SEGMENT_NAME_MAX } from "./segment-editor.js";
import type { SegmentDraft } from "./segment-editor.js";
import { useSegmentCount } from "./useSegmentCount.js";

/** Novo segmento / Editar segmento: a name, an optional description, and the expression with its live count. */
export function SegmentDialog({
  open,
  segment,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** The segment being edited, or null to create one. */
  segment: SavedSegment | null;
  onClose: () => void;
  onSaved: (segment: SavedSegment) => void;
}) {
  const { t } = useTranslation();
  const { segments: api } = useDashboardServices();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [draft, setDraft] = useState<SegmentDraft>(EMPTY_SEGMENT_DRAFT);
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Counted only while open: a closed dialog asks the server nothing.
  const count = useSegmentCount(api, open ? draft : EMPTY_SEGMENT_DRAFT);

  // Each opening starts from the segment (or blank): reset while rendering, as React advises for a prop change.
  const [openedWith, setOpenedWith] = useState<{ open: boolean; segment: SavedSegment | null }>({ open: false, segment: null });
  if (openedWith.open !== open || openedWith.segment !== segment) {
    setOpenedWith({ open, segment });
    if (open) {
      setName(segment?.name ?? "");
      setDescription(segment?.description ?? "");
      setDraft(segment ? { expression: segment.expression, tagKinds: segment.tagKinds } : EMPTY_SEGMENT_DRAFT);
      setNameError(null);
      setFormError(null);
    }
  }

  const submit = async () => {
    if (name.trim() === "") return setNameError(t("segments.dialog.nameRequired"));
    if (draft.expression.trim() === "") return setFormError(t("segments.dialog.expressionRequired"));
    setBusy(true);
    setFormError(null);
    try {
      const request = { name: name.trim(), description: description.trim() === "" ? null : description.trim(), expression: draft.expression, tagKinds: draft.tagKinds };
      const saved = segment ? await api.updateSegment(segment.id, request) : await api.createSegment(request);
      onSaved(saved);
      onClose();
    } catch (error) {
      if (isDashboardApiError(error) && (error.field === "name" || error.code === "segment_name_taken" || error.code === "segment_name_invalid")) setNameError(errorText(t, error));
      else setFormError(refusalText(t, error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      maxWidth="md"
      titleId="segment-dialog-title"
      title={segment ? t("segments.dialog.editTitle") : t("segments.dialog.createTitle")}
      busy={busy}
      submitLabel={segment ? t("segments.dialog.save") : t("segments.dialog.create")}
      onSubmit={submit}
    >
      <FormFields error={formError}>
        <TextField
          name="name"
          label={t("segments.dialog.name")}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setNameError(null);
          }}
          error={nameError !== null}
          helperText={nameError ?? t("segments.dialog.nameHint")}
          required
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { maxLength: SEGMENT_NAME_MAX } }}
        />
        <TextField name="description" label={t("segments.dialog.description")} value={description} onChange={(event) => setDescription(event.target.value)} fullWidth multiline maxRows={3} />
        <SegmentEditor value={draft} onChange={setDraft} count={count} />
      </FormFields>
    </FormDialog>
  );
}
