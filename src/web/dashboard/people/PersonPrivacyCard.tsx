import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ErasureCountsPresentation, PersonExportResponse } from "../../../shared/api/privacy.js";
import { erasureSummary } from "../../../shared/privacy/erasure-summary.js";
import { createPrivacyApi } from "../api/privacy-api.js";
import { errorText } from "../api/error-text.js";
import { DASHBOARD_PATHS } from "../paths.js";

/** Offers a JSON file in the page (the same way the bell's "Meus dados" does). */
function download(fileName: string, data: PersonExportResponse): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Pessoa → "Dados pessoais (LGPD)": answers a data subject's request from the Painel. Export
 * downloads everything Sino keeps about the person as JSON; erase first counts what would go
 * (the same export) and says it in the confirmation, then erases and says so.
 */
export function PersonPrivacyCard({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const api = useMemo(() => createPrivacyApi(), []);
  const [working, setWorking] = useState<"export" | "count" | "erase" | null>(null);
  const [counts, setCounts] = useState<ErasureCountsPresentation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [erased, setErased] = useState(false);

  const exportData = () => {
    setWorking("export");
    setError(null);
    api.exportPerson(userId).then(
      (data) => download(`sino-dados-${userId.replace(/[^\w.@-]+/g, "_")}.json`, data),
      (caught: unknown) => setError(errorText(t, caught) || t("privacy.painel.exportFailed")),
    ).finally(() => setWorking(null));
  };
  const askToErase = () => {
    setWorking("count");
    setError(null);
    api.exportPerson(userId).then(
      (data) => setCounts(data.counts),
      () => setError(t("privacy.painel.loadFailed")),
    ).finally(() => setWorking(null));
  };
  const erase = () => {
    setWorking("erase");
    setError(null);
    api.erasePerson(userId).then(
      () => {
        setErased(true);
        setWorking(null);
        setCounts(null);
      },
      (caught: unknown) => {
        setError(errorText(t, caught));
        setWorking(null);
      },
    );
  };
  const close = () => {
    if (working !== "erase") setCounts(null);
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="person-privacy-title" data-testid="person-privacy">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2" id="person-privacy-title">
            {t("privacy.painel.title")}
          </Typography>
          <Typography color="text.secondary">{t("privacy.painel.intro")}</Typography>
          {error !== null && counts === null && (
            <Alert severity="error" role="alert">
              {error}
            </Alert>
          )}
          <div role="status">
            {erased && (
              <Alert severity="success" data-testid="person-erased" action={<Button component={RouterLink} to={DASHBOARD_PATHS.people} color="inherit">{t("people.person.back")}</Button>}>
                {t("privacy.painel.erased", { userId })}
              </Alert>
            )}
          </div>
          <Stack direction={{ xs: "column", sm: "row" }} spacing={1} sx={{ display: erased ? "none" : undefined }}>
            <Button variant="outlined" onClick={exportData} loading={working === "export"} disabled={working !== null} data-testid="person-export">
              {t("privacy.painel.export")}
            </Button>
            <Button variant="outlined" color="error" onClick={askToErase} loading={working === "count"} disabled={working !== null} data-testid="person-erase">
              {t("privacy.painel.erase")}
            </Button>
          </Stack>
        </Stack>
      </CardContent>
      <Dialog open={counts !== null} onClose={close} aria-labelledby="person-erase-title" aria-describedby="person-erase-text" maxWidth="sm" fullWidth data-testid="person-erase-dialog">
        <DialogTitle id="person-erase-title">{t("privacy.painel.confirmTitle", { userId })}</DialogTitle>
        <DialogContent>
          <div id="person-erase-text">
            <DialogContentText>{t("privacy.painel.confirmIntro")}</DialogContentText>
            <ul data-testid="person-erase-counts">
              {counts !== null && erasureSummary(counts, t, "privacy.").map((line) => <li key={line}>{line}</li>)}
            </ul>
            <DialogContentText>{t("privacy.painel.confirmNote")}</DialogContentText>
          </div>
          {error !== null && (
            <Alert severity="error" sx={{ mt: 2 }} role="alert">
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} autoFocus disabled={working === "erase"}>
            {t("privacy.painel.cancel")}
          </Button>
          <Button onClick={erase} variant="contained" color="error" loading={working === "erase"} data-testid="person-erase-confirm">
            {t("privacy.painel.confirm")}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
