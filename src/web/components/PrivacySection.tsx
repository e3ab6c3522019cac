import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
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
import { downloadMyData, useSino } from "@sino/react";

type Outcome = "exported" | "exportFailed" | "erased" | "eraseFailed" | null;

/**
 * "Seus dados" on /preferencias (LGPD Art. 18), the public pages' twin of the embed's section:
 * "Meus dados" downloads what Sino keeps about this browser as JSON; "Apagar meus dados" asks in a
 * dialog, erases, and the client unsubscribes (the page then shows notifications off). Shown while
 * on, and after an erasure to say it happened.
 */
export function PrivacySection() {
  const { t } = useTranslation();
  const { state, exportMyData, eraseMyData } = useSino();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [working, setWorking] = useState<"export" | "erase" | null>(null);
  const [asking, setAsking] = useState(false);
  const eraseButton = useRef<HTMLButtonElement>(null);
  if (state !== "on" && outcome !== "erased") return null;

  const download = () => {
    setWorking("export");
    exportMyData().then(
      (data) => {
        downloadMyData(window, data);
        setOutcome("exported");
      },
      () => setOutcome("exportFailed"),
    ).finally(() => setWorking(null));
  };
  const erase = () => {
    setWorking("erase");
    eraseMyData().then(
      () => setOutcome("erased"),
      () => setOutcome("eraseFailed"),
    ).finally(() => {
      setWorking(null);
      setAsking(false);
    });
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="privacy-title" data-testid="privacy-section">
      <CardContent>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2" id="privacy-title">
            {t("embed.privacy.title")}
          </Typography>
          {outcome !== "erased" && <Typography color="text.secondary">{t("embed.privacy.intro")}</Typography>}
          <div role="status" aria-live="polite">
            {outcome !== null && (
              <Alert severity={outcome.endsWith("Failed") ? "error" : "success"} data-testid="privacy-outcome">
                {t(`embed.privacy.${outcome}`)}
              </Alert>
            )}
          </div>
          {state === "on" && (
            <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
              <Button variant="outlined" onClick={download} loading={working === "export"} disabled={working !== null} data-testid="privacy-export">
                {t("embed.privacy.export")}
              </Button>
              <Button variant="outlined" color="error" ref={eraseButton} onClick={() => setAsking(true)} disabled={working !== null} data-testid="privacy-erase">
                {t("embed.privacy.erase")}
              </Button>
            </Stack>
          )}
        </Stack>
      </CardContent>
      <Dialog open={asking} onClose={() => working === null && setAsking(false)} aria-labelledby="privacy-erase-title" aria-describedby="privacy-erase-text" data-testid="privacy-erase-dialog">
        <DialogTitle id="privacy-erase-title">{t("embed.privacy.erase")}</DialogTitle>
        <DialogContent>
          <DialogContentText id="privacy-erase-text">{t("embed.privacy.eraseQuestion")}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)} disabled={working !== null} autoFocus>
            {t("embed.privacy.eraseCancel")}
          </Button>
          <Button color="error" variant="contained" onClick={erase} loading={working === "erase"} data-testid="privacy-erase-confirm">
            {t("embed.privacy.eraseConfirm")}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
