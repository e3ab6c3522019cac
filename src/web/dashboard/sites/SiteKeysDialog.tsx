import { useEffect, useMemo, useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import UploadFileOutlined from "@mui/icons-material/UploadFileOutlined";
import type { SetSiteKeyRequest, SiteKeys, VapidKeyPresentation } from "../../../shared/api/site-keys.js";
import type { Site } from "../../../shared/api/sites.js";
import { createSiteKeysApi, type SiteKeysApi } from "../api/site-keys-api.js";
import { errorText } from "../api/error-text.js";
import { formatDateTime, formatNumber } from "../format.js";

type Mode = SetSiteKeyRequest["mode"];

/**
 * A site's VAPID key (issue 20), admin only: the key its subscriptions are made and signed with,
 * the older keys still in use, the subscriptions moved silently ("migradas"), and the explicit
 * change — Sino's default key, a new generated one, or the previous sender's key imported by
 * pasting it or choosing its file — saying first what happens to the subscribers it has. Only
 * public keys are ever shown.
 */
export function SiteKeysDialog({ site, timeZone, onClose, api: given }: { site: Site | null; timeZone: string; onClose: () => void; api?: SiteKeysApi }) {
  const api = useMemo(() => given ?? createSiteKeysApi(), [given]);
  return (
    <Dialog open={site !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="site-keys-title" aria-describedby="site-keys-intro">
      {/* Keyed by the site: each opening starts from a clean form. */}
      {site !== null && <SiteKeysBody key={site.id} site={site} timeZone={timeZone} onClose={onClose} api={api} />}
    </Dialog>
  );
}

function SiteKeysBody({ site, timeZone, onClose, api }: { site: Site; timeZone: string; onClose: () => void; api: SiteKeysApi }) {
  const { t } = useTranslation();
  const [keys, setKeys] = useState<SiteKeys | null>(null);
  const [mode, setMode] = useState<Mode>("generate");
  const [keyText, setKeyText] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const siteId = site.id;
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    api.getSiteKeys(siteId).then(
      (loaded) => live && setKeys(loaded),
      (failure: unknown) => live && setError(errorText(t, failure)),
    );
    return () => {
      live = false;
    };
  }, [api, siteId, t]);

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file === undefined) return;
    setKeyText(await file.text());
    setFileName(file.name);
    event.target.value = "";
  };

  const submit = async () => {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const result = await api.setSiteKey(siteId, mode === "import" ? { mode, key: keyText } : { mode });
      setKeys(result.keys);
      setKeyText("");
      setFileName(null);
      setDone(result.onPreviousKey > 0 ? t("site-keys.painel.done", { count: result.onPreviousKey }) : t("site-keys.painel.doneNone"));
    } catch (failure) {
      setError(errorText(t, failure));
    } finally {
      setBusy(false);
    }
  };

  const keyBlock = (key: VapidKeyPresentation, testId: string) => (
    <Box data-testid={testId} sx={{ mb: 1.5 }}>
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {t(`site-keys.painel.source.${key.source}`)}
        {key.createdAt !== null && ` · ${t("site-keys.painel.createdAt", { date: formatDateTime(key.createdAt, timeZone) })}`}
      </Typography>
      <Box component="code" sx={{ display: "block", fontSize: "0.8rem", wordBreak: "break-all", color: "text.secondary" }} aria-label={t("site-keys.painel.publicKey")}>
        {key.publicKey}
      </Box>
      <Typography variant="body2" color="text.secondary">
        {t("site-keys.painel.subscriptions", { count: key.subscriptions, formattedCount: formatNumber(key.subscriptions) })}
      </Typography>
    </Box>
  );

  return (
    <>
      <DialogTitle id="site-keys-title">{t("site-keys.painel.sectionNamed", { origin: site.origin })}</DialogTitle>
      <DialogContent>
        <DialogContentText id="site-keys-intro" sx={{ mb: 2 }}>
          {t("site-keys.painel.intro")}
        </DialogContentText>
        {keys === null && error === null && (
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 2 }}>
            <CircularProgress size={20} aria-hidden />
            <Typography variant="body2">{t("site-keys.painel.loading")}</Typography>
          </Stack>
        )}
        {keys !== null && (
          <>
            <Typography variant="subtitle2" component="h3">
              {t("site-keys.painel.current")}
            </Typography>
            {keyBlock(keys.current, "site-key-current")}
            {keys.previous.length > 0 && (
              <>
                <Typography variant="subtitle2" component="h3">
                  {t("site-keys.painel.previous")}
                </Typography>
                {keys.previous.map((key) => keyBlock(key, "site-key-previous"))}
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
                  {t("site-keys.painel.previousHint")}
                </Typography>
              </>
            )}
            <Typography variant="body2" data-testid="site-key-migrated" sx={{ mb: 2 }}>
              {t("site-keys.painel.migrated", { count: keys.migrated, formattedCount: formatNumber(keys.migrated) })}
            </Typography>

            <FormControl component="fieldset" sx={{ mb: 1 }}>
              <FormLabel component="legend">{t("site-keys.painel.modeLabel")}</FormLabel>
              <RadioGroup value={mode} onChange={(event) => setMode(event.target.value as Mode)} name="site-key-mode">
                <FormControlLabel value="default" control={<Radio />} label={t("site-keys.painel.mode.default")} />
                <FormControlLabel value="generate" control={<Radio />} label={t("site-keys.painel.mode.generate")} />
                <FormControlLabel value="import" control={<Radio />} label={t("site-keys.painel.mode.import")} />
              </RadioGroup>
            </FormControl>
            {mode === "import" && (
              <Box sx={{ mb: 2 }}>
                <TextField
                  label={t("site-keys.painel.keyField")}
                  helperText={t("site-keys.painel.keyHint")}
                  value={keyText}
                  onChange={(event) => setKeyText(event.target.value)}
                  multiline
                  minRows={3}
                  fullWidth
                  autoComplete="off"
                  slotProps={{ htmlInput: { spellCheck: false, "data-testid": "site-key-text" } }}
                />
                <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: "center" }}>
                  {/* The file input stays hidden (a native one is unlabelled and unstylable); the button opens it. */}
                  <Button size="small" variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()}>
                    {t("site-keys.painel.file")}
                  </Button>
                  <input ref={fileInput} type="file" hidden accept=".json,.pem,.key,.txt,application/json,text/plain" onChange={(event) => void readFile(event)} />
                  {fileName !== null && <Typography variant="body2">{t("site-keys.painel.fileChosen", { name: fileName })}</Typography>}
                </Stack>
              </Box>
            )}
            <Alert severity="info" sx={{ mb: 1 }}>
              <Typography variant="subtitle2" component="p">
                {t("site-keys.painel.whatHappens")}
              </Typography>
              <Typography variant="body2" data-testid="site-key-what-happens">
                {t("site-keys.painel.whatHappensText")}
              </Typography>
            </Alert>
            <Typography variant="body2" color="text.secondary">
              {t("site-keys.painel.privateNever")}
            </Typography>
          </>
        )}
        <Box role="status" sx={{ mt: 1 }}>
          {done !== null && (
            <Alert severity="success" data-testid="site-key-done">
              {done}
            </Alert>
          )}
        </Box>
        {error !== null && (
          <Alert severity="error" sx={{ mt: 1 }} data-testid="site-key-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={busy}>
          {t("site-keys.painel.close")}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy || keys === null || (mode === "import" && keyText.trim() === "")}>
          {t("site-keys.painel.confirm")}
        </Button>
      </DialogActions>
    </>
  );
}
