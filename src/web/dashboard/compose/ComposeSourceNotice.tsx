import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import LinearProgress from "@mui/material/LinearProgress";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import { LoadError } from "../components/LoadError.js";
import { formatNumber } from "../format.js";
import { notificationPagePath } from "../paths.js";
import type { ComposeSourceState } from "./useComposeSource.js";

/**
 * Above compose, what the form was filled from: a template, a copy of a send, or a scheduled send
 * being edited (and, once it left, that it can no longer be); a people send's people to type again.
 */
export function ComposeSourceNotice({ source, onRetry, keptPeople, editable }: { source: ComposeSourceState; onRetry: () => void; keptPeople: number | null; editable: boolean }) {
  const { t } = useTranslation();
  if (source.status === "none") return null;
  if (source.status === "loading") return <LinearProgress aria-label={t("templates.source.loading")} sx={{ mb: 2 }} />;
  if (source.status === "error") return <LoadError error={source.error} onRetry={onRetry} />;
  const kind = source.key.kind;
  const send = source.send;
  const sendLink = send === undefined ? null : (
    <Link component={RouterLink} to={notificationPagePath(send.id)}>
      {send.title}
    </Link>
  );
  const people = keptPeople === null ? null : { count: keptPeople, formatted: formatNumber(keptPeople) };
  return (
    <Stack spacing={1.5} sx={{ mb: 3 }} data-testid="compose-source">
      {source.template !== undefined && <Alert severity="info">{t("templates.source.template", { name: source.template.name })}</Alert>}
      {kind === "duplicate" && sendLink !== null && (
        <Alert severity="info">
          {t("templates.source.duplicate")} {sendLink}
        </Alert>
      )}
      {kind === "edit" && sendLink !== null && (
        <Alert severity={editable ? "info" : "warning"} role={editable ? undefined : "alert"}>
          {editable ? t("templates.source.edit") : t("templates.source.notScheduled")} {sendLink}
        </Alert>
      )}
      {people !== null && <Alert severity="info">{kind === "edit" ? t("templates.source.peopleKept", people) : t("templates.source.peopleAgain", people)}</Alert>}
    </Stack>
  );
}
