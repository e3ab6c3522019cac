import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import ContentCopyOutlined from "@mui/icons-material/ContentCopyOutlined";
import type { Site } from "../../../shared/api/sites.js";
import { siteSnippet } from "./snippet.js";

/** "Colocar o sino no seu site": the three pieces a site owner pastes, each with a copy button. */
export function SnippetDialog({ site, sinoUrl, onClose }: { site: Site | null; sinoUrl: string; onClose: () => void }) {
  const { t } = useTranslation();
  const snippet = site === null ? null : siteSnippet(sinoUrl, site.key);
  return (
    <Dialog open={site !== null} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="snippet-title" aria-describedby="snippet-lead">
      <DialogTitle id="snippet-title">{t("sites.snippetTitle")}</DialogTitle>
      {site !== null && snippet !== null && (
        <DialogContent>
          <DialogContentText id="snippet-lead" sx={{ mb: 2 }}>
            {t("sites.snippetLead", { origin: site.origin })}
          </DialogContentText>
          {site.snippetWarning !== undefined && (
            <Alert severity="warning" sx={{ mb: 2 }} data-testid="snippet-warning">
              {site.snippetWarning}
            </Alert>
          )}
          <Stack spacing={3}>
            <CodeStep title={t("sites.step1Title")} text={t("sites.step1Text")} code={snippet.script} testId="snippet-script" />
            <CodeStep title={t("sites.step2Title")} text={t("sites.step2Text")} code={snippet.element} testId="snippet-element" />
            <CodeStep
              title={t("sites.step3Title")}
              text={t("sites.step3Text", { path: snippet.serviceWorkerPath })}
              code={snippet.serviceWorker}
              testId="snippet-worker"
            />
          </Stack>
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t("sites.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}

function CodeStep({ title, text, code, testId }: { title: string; text: string; code: string; testId: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
  };
  return (
    <section aria-labelledby={titleId}>
      <Typography id={titleId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {text}
      </Typography>
      <Box
        component="pre"
        data-testid={testId}
        tabIndex={0}
        sx={{ m: 0, p: 1.5, bgcolor: "grey.100", borderRadius: 1, overflowX: "auto", fontSize: "0.85rem", whiteSpace: "pre-wrap", wordBreak: "break-all" }}
      >
        <code>{code}</code>
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: "center" }}>
        <Button size="small" variant="outlined" startIcon={<ContentCopyOutlined />} onClick={() => void copy()} aria-label={t("sites.copyNamed", { what: title })}>
          {t("sites.copy")}
        </Button>
        <Typography variant="body2" role="status" color={status === "failed" ? "error" : "text.secondary"}>
          {status === "copied" ? t("sites.copied") : status === "failed" ? t("sites.copyFailed") : ""}
        </Typography>
      </Stack>
    </section>
  );
}
