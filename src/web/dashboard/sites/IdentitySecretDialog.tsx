import { useState } from "react";
import { useTranslation } from "react-i18next";
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
import type { IdentitySecretResponse } from "../../../shared/api/sites.js";
import { formatDateTime } from "../format.js";

const HOUR_MS = 3_600_000;

/**
 * The identity secret, right after it was generated: the only time Sino shows it. Says where it
 * goes (the site's server, never the page), what the server computes with it, and how long the
 * previous one still counts after a replacement.
 */
export function IdentitySecretDialog({ shown, timeZone, onClose }: { shown: IdentitySecretResponse | null; timeZone: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  const identity = shown?.site.identity;
  const graceHours =
    identity?.previousValidUntil != null && identity.rotatedAt !== null ? Math.round((Date.parse(identity.previousValidUntil) - Date.parse(identity.rotatedAt)) / HOUR_MS) : null;
  const copy = async () => {
    if (shown === null) return;
    try {
      await navigator.clipboard.writeText(shown.secret);
      setStatus("copied");
    } catch {
      setStatus("failed");
    }
  };
  const close = () => {
    setStatus("idle");
    onClose();
  };
  return (
    <Dialog open={shown !== null} onClose={close} maxWidth="sm" fullWidth aria-labelledby="identity-secret-title" aria-describedby="identity-secret-lead">
      <DialogTitle id="identity-secret-title">{t("sites.identity.secretTitle", { origin: shown?.site.origin ?? "" })}</DialogTitle>
      {shown !== null && (
        <DialogContent>
          <DialogContentText id="identity-secret-lead" sx={{ mb: 2 }}>
            {t("sites.identity.secretLead")}
          </DialogContentText>
          <Typography variant="subtitle2" component="p" id="identity-secret-label">
            {t("sites.identity.secretLabel")}
          </Typography>
          <Box
            component="pre"
            data-testid="identity-secret"
            aria-labelledby="identity-secret-label"
            tabIndex={0}
            sx={{ m: 0, p: 1.5, bgcolor: "grey.100", borderRadius: 1, fontSize: "0.85rem", whiteSpace: "pre-wrap", wordBreak: "break-all" }}
          >
            <code>{shown.secret}</code>
          </Box>
          <Stack direction="row" spacing={1} sx={{ mt: 1, mb: 2, alignItems: "center" }}>
            <Button size="small" variant="outlined" startIcon={<ContentCopyOutlined />} onClick={() => void copy()}>
              {t("sites.identity.copySecret")}
            </Button>
            <Typography variant="body2" role="status" color={status === "failed" ? "error" : "text.secondary"}>
              {status === "copied" ? t("sites.copied") : status === "failed" ? t("sites.copyFailed") : ""}
            </Typography>
          </Stack>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {t("sites.identity.secretHowTo")}
          </Typography>
          {graceHours !== null && identity?.previousValidUntil != null && (
            <Typography variant="body2" data-testid="identity-secret-grace">
              {t("sites.identity.secretGrace", { count: graceHours, date: formatDateTime(identity.previousValidUntil, timeZone) })}
            </Typography>
          )}
        </DialogContent>
      )}
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button variant="contained" onClick={close}>
          {t("sites.identity.done")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
