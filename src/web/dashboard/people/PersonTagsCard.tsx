import { useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import EditOutlined from "@mui/icons-material/EditOutlined";
import type { Tags } from "../../../shared/api/tag-rule.js";
import { TagChips } from "./TagChips.js";
import { TagsDialog } from "./TagsDialog.js";

export interface PersonTagsCardProps {
  readonly userId: string;
  readonly tags: Tags;
  /** Admins edit trusted tags; the dialog saves them all at once. */
  readonly save: (tags: Tags) => Promise<Tags>;
  readonly onSaved: (tags: Tags) => void;
}

/** A person's trusted tags (set by the host's server, or here by an admin). */
export function PersonTagsCard({ userId, tags, save, onSaved }: PersonTagsCardProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  return (
    <Card variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center", justifyContent: "space-between", mb: 1 }}>
        <Typography variant="h6" component="h2">
          {t("people.tags.trustedTitle")}
        </Typography>
        <Button size="small" startIcon={<EditOutlined />} onClick={() => setEditing(true)}>
          {t("people.tags.edit")}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t("people.tags.trustedHint")}
      </Typography>
      <TagChips tags={tags} empty={t("people.tags.none")} testId="person-tags" />
      <TagsDialog
        open={editing}
        userId={userId}
        tags={tags}
        save={save}
        onClose={() => setEditing(false)}
        onSaved={(saved) => {
          setEditing(false);
          onSaved(saved);
        }}
      />
    </Card>
  );
}
