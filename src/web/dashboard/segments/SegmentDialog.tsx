import { useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import type { SavedSegment } from "../api/segments-api.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import { errorText } from "../api/error-text.js";
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

  const close = () => {
    if (!busy) onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
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

  const titleId = "segment-dialog-title";
  return (
    <Dialog open={open} onClose={close} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId}>{segment ? t("segments.dialog.editTitle") : t("segments.dialog.createTitle")}</DialogTitle>
        <DialogContent>
          <Stack spacing={2.5} sx={{ pt: 1 }}>
            {formError && (
              <Alert severity="error" role="alert">
                {formError}
              </Alert>
            )}
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
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={busy}>
            {t("dashboard.common.cancel")}
          </Button>
          <Button type="submit" variant="contained" loading={busy}>
            {segment ? t("segments.dialog.save") : t("segments.dialog.create")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
