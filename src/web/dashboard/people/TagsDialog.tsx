import { useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogContentText from "@mui/material/DialogContentText";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import { TAG_LIMITS, isValidTagKey, isValidTagValue, type Tags } from "../../../shared/api/tag-rule.js";
import { errorText } from "../api/error-text.js";
import { DialogForm } from "../components/FormDialog.js";
import { FormError } from "../components/FormFields.js";
import { tagText } from "./TagChips.js";

export interface TagsDialogProps {
  readonly open: boolean;
  readonly userId: string;
  readonly tags: Tags;
  /** Replaces the person's trusted tags; resolves with what the server stored. */
  readonly save: (tags: Tags) => Promise<Tags>;
  readonly onClose: () => void;
  readonly onSaved: (tags: Tags) => void;
}

/** An admin edits a person's trusted tags: add (key, value) or remove, then save all at once. */
export function TagsDialog({ open, ...props }: TagsDialogProps) {
  return (
    <Dialog open={open} onClose={props.onClose} maxWidth="sm" fullWidth aria-labelledby="tags-dialog-title">
      {/* Remounted per opening, so it starts from the person's tags as they are. */}
      {open && <TagsForm {...props} />}
    </Dialog>
  );
}

function TagsForm({ userId, tags: initial, save, onClose, onSaved }: Omit<TagsDialogProps, "open">) {
  const { t } = useTranslation();
  const [tags, setTags] = useState<Tags>(initial);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [keyError, setKeyError] = useState<string | null>(null);
  const [valueError, setValueError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const add = () => {
    const trimmedKey = key.trim();
    // An empty value is a key-only tag (`tem vip`).
    const typed = value === "" ? true : value;
    setKeyError(isValidTagKey(trimmedKey) ? null : t("errors.tag_key_invalid"));
    setValueError(isValidTagValue(typed) ? null : t("errors.tag_value_invalid"));
    if (!isValidTagKey(trimmedKey) || !isValidTagValue(typed)) return;
    if (!(trimmedKey in tags) && Object.keys(tags).length >= TAG_LIMITS.perOwner) {
      setFormError(t("errors.too_many_tags"));
      return;
    }
    setTags({ ...tags, [trimmedKey]: typed });
    setKey("");
    setValue("");
  };
  const remove = (name: string) => {
    const { [name]: _removed, ...rest } = tags;
    setTags(rest);
  };
  const submit = async () => {
    setFormError(null);
    setBusy(true);
    try {
      onSaved(await save(tags));
    } catch (error) {
      setBusy(false);
      setFormError(errorText(t, error));
    }
  };

  const entries = Object.entries(tags);
  return (
    <DialogForm titleId="tags-dialog-title" title={t("people.tags.dialogTitle", { userId })} busy={busy} submitLabel={t("people.tags.save")} onSubmit={submit} onCancel={onClose}>
      <DialogContentText sx={{ mb: 1 }}>{t("people.tags.dialogText")}</DialogContentText>
      {entries.length === 0 ? (
        <DialogContentText color="text.secondary">{t("people.tags.none")}</DialogContentText>
      ) : (
        <List dense aria-label={t("people.tags.trustedTitle")} data-testid="tags-dialog-list">
          {entries.map(([name, v]) => (
            <ListItem
              key={name}
              disableGutters
              secondaryAction={
                <IconButton edge="end" onClick={() => remove(name)} aria-label={t("people.tags.removeNamed", { tag: tagText(name, v) })}>
                  <DeleteOutlined />
                </IconButton>
              }
            >
              <ListItemText primary={tagText(name, v)} />
            </ListItem>
          ))}
        </List>
      )}
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ mt: 1, alignItems: { sm: "flex-start" } }}>
        <TextField
          label={t("people.tags.key")}
          value={key}
          size="small"
          onChange={(event) => setKey(event.target.value)}
          error={keyError !== null}
          helperText={keyError ?? t("people.tags.keyHint")}
          slotProps={{ htmlInput: { maxLength: TAG_LIMITS.keyLength, autoCapitalize: "none", spellCheck: false } }}
        />
        <TextField
          label={t("people.tags.value")}
          value={value}
          size="small"
          onChange={(event) => setValue(event.target.value)}
          error={valueError !== null}
          helperText={valueError ?? t("people.tags.valueHint")}
          slotProps={{ htmlInput: { maxLength: TAG_LIMITS.valueLength * 2 } }}
        />
        <Button variant="outlined" onClick={add} sx={{ mt: { sm: 0.25 } }}>
          {t("people.tags.add")}
        </Button>
      </Stack>
      <FormError error={formError} sx={{ mt: 2 }} />
    </DialogForm>
  );
}
