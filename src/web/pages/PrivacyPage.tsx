import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Container from "@mui/material/Container";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { PrivacyResponse } from "../../shared/api/audit.js";
import { API_ROUTES } from "../../shared/api/routes.js";

type State = { status: "loading" } | { status: "error" } | { status: "ready"; privacy: PrivacyResponse };

/** /privacidade: what Sino keeps about a subscriber and for how long, from the running configuration (GET /privacy). */
export function PrivacyPage() {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ status: "loading" });

  useEffect(() => {
    let current = true;
    fetch(API_ROUTES.privacy, { headers: { accept: "application/json" } })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const privacy = (await res.json()) as PrivacyResponse;
        if (current) setState({ status: "ready", privacy });
      })
      .catch(() => current && setState({ status: "error" }));
    return () => {
      current = false;
    };
  }, []);

  useEffect(() => {
    document.title = t("audit.privacy.title");
  }, [t]);

  const privacy = state.status === "ready" ? state.privacy : null;
  const period = (days: number | null | undefined, key: string) => (days === null || days === undefined ? t("audit.privacy.rows.forever") : t(key, { days: days.toLocaleString("pt-BR") }));
  const rows =
    privacy === null
      ? []
      : [
          {
            id: "subscription",
            what: t("audit.privacy.rows.subscription.what"),
            why: t("audit.privacy.rows.subscription.why"),
            howLong: privacy.inactiveSubscriptionDays === null ? t("audit.privacy.rows.subscriptionKept") : t("audit.privacy.rows.subscriptionInactive", { days: privacy.inactiveSubscriptionDays.toLocaleString("pt-BR") }),
          },
          { id: "events", what: t("audit.privacy.rows.events.what"), why: t("audit.privacy.rows.events.why"), howLong: period(privacy.eventRetentionDays, "audit.privacy.rows.eventsDays") },
          { id: "removed", what: t("audit.privacy.rows.removed.what"), why: t("audit.privacy.rows.removed.why"), howLong: period(privacy.removedRetentionDays, "audit.privacy.rows.removedDays") },
          { id: "consent", what: t("audit.privacy.rows.consent.what"), why: t("audit.privacy.rows.consent.why"), howLong: period(privacy.consentRetentionDays, "audit.privacy.rows.consentDays") },
          { id: "audit", what: t("audit.privacy.rows.audit.what"), why: t("audit.privacy.rows.audit.why"), howLong: period(privacy.auditRetentionDays, "audit.privacy.rows.auditDays") },
        ];

  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, sm: 6 } }} data-testid="privacy-page">
      <Typography variant="h4" component="h1" gutterBottom sx={{ fontWeight: 600 }}>
        {t("audit.privacy.title")}
      </Typography>
      <Typography sx={{ mb: 3 }}>
        {t("audit.privacy.intro", { organisation: privacy?.organisationName ? t("audit.privacy.organisation", { name: privacy.organisationName }) : "" })}
      </Typography>
      <Typography variant="h5" component="h2" gutterBottom>
        {t("audit.privacy.storesTitle")}
      </Typography>
      {state.status === "error" && (
        <Alert severity="warning" sx={{ mb: 3 }}>
          {t("audit.privacy.loadError")}
        </Alert>
      )}
      {state.status === "loading" && <Skeleton variant="rectangular" height={240} sx={{ mb: 3 }} />}
      {privacy !== null && (
        <TableContainer component={Paper} variant="outlined" sx={{ mb: 4 }}>
          <Table aria-label={t("audit.privacy.tableLabel")} data-testid="privacy-table">
            <TableHead>
              <TableRow>
                <TableCell component="th" scope="col">
                  {t("audit.privacy.columns.what")}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t("audit.privacy.columns.why")}
                </TableCell>
                <TableCell component="th" scope="col">
                  {t("audit.privacy.columns.howLong")}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} data-testid={`privacy-row-${row.id}`}>
                  <TableCell>{row.what}</TableCell>
                  <TableCell>{row.why}</TableCell>
                  <TableCell>{row.howLong}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Typography variant="h5" component="h2" gutterBottom>
        {t("audit.privacy.notStoredTitle")}
      </Typography>
      <Typography sx={{ mb: 3 }}>{t("audit.privacy.notStored")}</Typography>
      <Typography variant="h5" component="h2" gutterBottom>
        {t("audit.privacy.rightsTitle")}
      </Typography>
      <Typography>{t("audit.privacy.rights")}</Typography>
    </Container>
  );
}
