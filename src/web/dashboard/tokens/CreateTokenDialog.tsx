import { useState } from "react";
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import ContentCopy from "@mui/icons-material/ContentCopy";
import Check from "@mui/icons-material/Check";
import { TOKEN_NAME_MAX_LENGTH } from "../../../shared/api/tokens.js";
import { errorText } from "../api/error-text.js";
import { isDashboardApiError } from "../api/dashboard-api-error.js";
import type { ApiToken, TokenScope } from "../api/types.js";
import { useDashboardServices } from "../services.js";

/**
 * Creates a token, then shows its secret ONCE (the server keeps only a hash): copy button, and a
 * warning that closing the dialog loses it for good.
 */
export function CreateTokenDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (token: ApiToken) => void }) {
  const { t } = useTranslation();
  const { api } = useDashboardServices();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<TokenScope>("publish");
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);

  const reset = () => {
    setName("");
    setScope("publish");
    setNameError(null);
    setFormError(null);
    setSecret(null);
    setCopied(null);
  };

  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === "") return setNameError(t("errors.name_required"));
    if (trimmed.length > TOKEN_NAME_MAX_LENGTH) return setNameError(t("errors.name_too_long"));
    setBusy(true);
    setFormError(null);
    try {
      const created = await api.createToken({ name: trimmed, scope });
      setSecret(created.secret);
      onCreated(created.token);
    } catch (error) {
      if (isDashboardApiError(error) && error.field === "name") setNameError(errorText(t, error));
      else setFormError(errorText(t, error));
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (secret === null) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      // No clipboard permission (some browsers, http): the field is selected for a manual copy.
      setCopied("failed");
    }
  };

  return (
    <Dialog
      open={open}
      // The secret cannot be shown again: a stray click on the backdrop must not lose it.
      onClose={(_event, reason) => (secret !== null && reason === "backdropClick" ? undefined : close())}
      aria-labelledby="create-token-title"
      maxWidth="sm"
      fullWidth
    >
      {secret === null ? (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <DialogTitle id="create-token-title">{t("dashboard.tokens.createTitle")}</DialogTitle>
          <DialogContent>
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              {formError && (
                <Alert severity="error" role="alert">
                  {formError}
                </Alert>
              )}
              <TextField
                label={t("dashboard.tokens.name")}
                name="name"
                value={name}
                onChange={(event) => {
                  setName(event.target.value);
                  setNameError(null);
                }}
                error={nameError !== null}
                helperText={nameError ?? t("dashboard.tokens.nameHint")}
                required
                fullWidth
                autoFocus
              />
              <TextField select label={t("dashboard.tokens.scope")} name="scope" value={scope} onChange={(event) => setScope(event.target.value as TokenScope)} helperText={t(`dashboard.tokens.scopes.${scope}Hint`)} fullWidth>
                <MenuItem value="publish">{t("dashboard.tokens.scopes.publish")}</MenuItem>
                <MenuItem value="admin">{t("dashboard.tokens.scopes.admin")}</MenuItem>
              </TextField>
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button onClick={close} disabled={busy}>
              {t("dashboard.common.cancel")}
            </Button>
            <Button type="submit" variant="contained" loading={busy}>
              {t("dashboard.tokens.create")}
            </Button>
          </DialogActions>
        </form>
      ) : (
        <>
          <DialogTitle id="create-token-title">{t("dashboard.tokens.createdTitle")}</DialogTitle>
          <DialogContent>
            <Stack spacing={2.5} sx={{ pt: 1 }}>
              <Alert severity="warning">
                <AlertTitle>{t("dashboard.tokens.onceTitle")}</AlertTitle>
                {t("dashboard.tokens.onceText")}
              </Alert>
              <TextField
                label={t("dashboard.tokens.secret")}
                value={secret}
                fullWidth
                onFocus={(event) => event.target.select()}
                helperText={copied === "yes" ? t("dashboard.tokens.copied") : copied === "failed" ? t("dashboard.tokens.copyFailed") : undefined}
                slotProps={{
                  htmlInput: { readOnly: true, "data-testid": "token-secret", spellCheck: false, sx: { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" } },
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <Tooltip title={copied === "yes" ? t("dashboard.tokens.copied") : t("dashboard.tokens.copy")}>
                          <IconButton aria-label={t("dashboard.tokens.copy")} onClick={() => void copy()} edge="end">
                            {copied === "yes" ? <Check color="success" /> : <ContentCopy />}
                          </IconButton>
                        </Tooltip>
                      </InputAdornment>
                    ),
                  },
                }}
              />
            </Stack>
          </DialogContent>
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button variant="contained" onClick={close}>
              {t("dashboard.tokens.done")}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
