import { useId } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Site } from "../../../shared/api/sites.js";
import { CopyableCode } from "./CopyableCode.js";
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
  return (
    <section aria-labelledby={titleId}>
      <Typography id={titleId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {text}
      </Typography>
      <CopyableCode code={code} testId={testId} copyLabel={t("sites.copy")} copyAriaLabel={t("sites.copyNamed", { what: title })} />
    </section>
  );
}
