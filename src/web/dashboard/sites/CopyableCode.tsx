import { useTranslation } from "react-i18next";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import ContentCopyOutlined from "@mui/icons-material/ContentCopyOutlined";
import { useClipboardCopy } from "../hooks/useClipboardCopy.js";

export interface CopyableCodeProps {
  code: string;
  testId: string;
  /** The id of the text that names the block, if any. */
  labelledBy?: string;
  copyLabel: string;
  /** The copy button's accessible name, when its visible label alone is ambiguous (several blocks). */
  copyAriaLabel?: string;
}

/**
 * Code for the site owner to paste (the snippet's pieces, the identity secret): a focusable block
 * that wraps, a copy button, and a live line that says whether the copy worked.
 */
export function CopyableCode({ code, testId, labelledBy, copyLabel, copyAriaLabel }: CopyableCodeProps) {
  const { t } = useTranslation();
  const { status, copy } = useClipboardCopy(code);
  return (
    <>
      <Box
        component="pre"
        data-testid={testId}
        aria-labelledby={labelledBy}
        tabIndex={0}
        sx={{ m: 0, p: 1.5, bgcolor: "grey.100", borderRadius: 1, overflowX: "auto", fontSize: "0.85rem", whiteSpace: "pre-wrap", wordBreak: "break-all" }}
      >
        <code>{code}</code>
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: "center" }}>
        <Button size="small" variant="outlined" startIcon={<ContentCopyOutlined />} onClick={() => void copy()} aria-label={copyAriaLabel}>
          {copyLabel}
        </Button>
        <Typography variant="body2" role="status" color={status === "failed" ? "error" : "text.secondary"}>
          {status === "copied" ? t("sites.copied") : status === "failed" ? t("sites.copyFailed") : ""}
        </Typography>
      </Stack>
    </>
  );
}
