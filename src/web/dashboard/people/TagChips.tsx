import { useTranslation } from "react-i18next";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Tags, TagValue } from "../../../shared/api/tag-rule.js";

/** `plano: premium`, or `vip` for a key-only tag. */
export function tagText(key: string, value: TagValue): string {
  return value === true ? key : `${key}: ${String(value)}`;
}

export interface TagChipsProps {
  readonly tags: Tags;
  /** Visitor tags (set by the page): outlined, and named as such for screen readers too. */
  readonly visitor?: boolean;
  /** Shown when there are none; nothing when absent. */
  readonly empty?: string;
  readonly testId?: string;
}

/**
 * Tags as chips. Trusted ones (set by the host's server) are filled; visitor ones are outlined and
 * marked "definida pela página", so no one takes the page's word for the host's.
 */
export function TagChips({ tags, visitor = false, empty, testId }: TagChipsProps) {
  const { t } = useTranslation();
  const entries = Object.entries(tags);
  if (entries.length === 0) {
    return empty === undefined ? null : (
      <Typography variant="body2" color="text.secondary" data-testid={testId}>
        {empty}
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: "wrap" }} data-testid={testId}>
      {entries.map(([key, value]) => {
        const text = tagText(key, value);
        return visitor ? (
          <Chip key={key} size="small" variant="outlined" label={t("people.tags.visitorChip", { tag: text })} data-testid="tag-chip" data-kind="visitor" />
        ) : (
          <Chip key={key} size="small" color="primary" label={text} data-testid="tag-chip" data-kind="trusted" />
        );
      })}
    </Stack>
  );
}
