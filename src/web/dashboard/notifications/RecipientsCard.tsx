import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { RECIPIENT_OUTCOMES, type Recipient, type RecipientOutcome } from "../../../shared/api/recipients.js";
import { errorText } from "../api/error-text.js";
import { ListSkeleton } from "../components/ListSkeleton.js";
import { formatDateTime, formatNumber } from "../format.js";
import { personPagePath } from "../paths.js";
import { OutcomeChip, outcomeLabel } from "../people/OutcomeChip.js";
import { useDashboardServices } from "../services.js";
import { useCurrentUser } from "../session/session-context.js";

const PAGE = 100;
const ALL_SHOWN = { select: { displayEmpty: true }, inputLabel: { shrink: true } } as const;

type State =
  | { status: "loading" }
  | { status: "error"; error: unknown }
  | { status: "ready"; recipients: Recipient[]; next: string | null; loadingMore: boolean };

/**
 * Destinatários: what became of each push of the send, a page at a time ("carregar mais" follows
 * the server's keyset), filtered by outcome. The user id links to the person's page for admins,
 * who alone may open it.
 */
export function RecipientsCard({ notificationId }: { notificationId: string }) {
  const { t } = useTranslation();
  const { people: api, timeZone } = useDashboardServices();
  const isAdmin = useCurrentUser().role === "admin";
  const [outcome, setOutcome] = useState<RecipientOutcome | "">("");
  const [state, setState] = useState<State>({ status: "loading" });

  const load = useCallback(
    (after: string | undefined) => api.listRecipients(notificationId, { outcome: outcome === "" ? undefined : outcome, after, limit: PAGE }),
    [api, notificationId, outcome],
  );

  useEffect(() => {
    let current = true;
    load(undefined).then(
      (page) => current && setState({ status: "ready", recipients: page.recipients, next: page.next, loadingMore: false }),
      (error: unknown) => current && setState({ status: "error", error }),
    );
    return () => {
      current = false;
    };
  }, [load]);

  async function loadMore(): Promise<void> {
    if (state.status !== "ready" || state.next === null) return;
    setState({ ...state, loadingMore: true });
    try {
      const page = await load(state.next);
      setState({ status: "ready", recipients: [...state.recipients, ...page.recipients], next: page.next, loadingMore: false });
    } catch (error) {
      setState({ status: "error", error });
    }
  }

  const when = (iso: string | null) => (iso === null ? t("people.never") : formatDateTime(iso, timeZone));
  return (
    <Card variant="outlined" data-testid="recipients">
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ p: 2, alignItems: { sm: "center" }, justifyContent: "space-between" }}>
        <Typography variant="h6" component="h2">
          {t("people.recipients.title")}
        </Typography>
        <TextField
          select
          size="small"
          label={t("people.recipients.filter")}
          value={outcome}
          onChange={(e) => {
            setState({ status: "loading" });
            setOutcome(e.target.value as RecipientOutcome | "");
          }}
          slotProps={ALL_SHOWN}
          sx={{ minWidth: 200 }}
          data-testid="recipients-filter"
        >
          <MenuItem value="">{t("people.recipients.any")}</MenuItem>
          {RECIPIENT_OUTCOMES.map((value) => (
            <MenuItem key={value} value={value}>
              {outcomeLabel(t, value)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {state.status === "loading" && <ListSkeleton rows={3} />}
      {state.status === "error" && (
        <Alert severity="error" sx={{ m: 2 }}>
          {errorText(t, state.error)}
        </Alert>
      )}
      {state.status === "ready" && state.recipients.length === 0 && (
        <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
          {t("people.recipients.empty")}
        </Typography>
      )}
      {state.status === "ready" && state.recipients.length > 0 && (
        <>
          <Table aria-label={t("people.recipients.title")} data-testid="recipients-table">
            <TableHead>
              <TableRow>
                <TableCell>{t("people.recipients.columns.userId")}</TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("people.recipients.columns.site")}</TableCell>
                <TableCell>{t("people.recipients.columns.outcome")}</TableCell>
                <TableCell align="right" sx={{ display: { xs: "none", sm: "table-cell" } }}>
                  {t("people.recipients.columns.attempts")}
                </TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("people.recipients.columns.shown")}</TableCell>
                <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("people.recipients.columns.clicked")}</TableCell>
                <TableCell sx={{ display: { xs: "none", lg: "table-cell" } }}>{t("people.recipients.columns.closed")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {state.recipients.map((r) => (
                <TableRow key={r.subscriptionId} data-testid="recipient-row">
                  <TableCell sx={{ overflowWrap: "anywhere" }}>
                    {r.userId === null ? (
                      <Typography variant="body2" color="text.secondary">
                        {t("people.recipients.anonymous")}
                      </Typography>
                    ) : isAdmin ? (
                      <Link component={RouterLink} to={personPagePath(r.userId)}>
                        {r.userId}
                      </Link>
                    ) : (
                      r.userId
                    )}
                  </TableCell>
                  <TableCell sx={{ display: { xs: "none", md: "table-cell" }, overflowWrap: "anywhere" }}>{r.site.origin ?? t("people.deletedSite")}</TableCell>
                  <TableCell>
                    <OutcomeChip outcome={r.outcome} reason={r.reason} />
                  </TableCell>
                  <TableCell align="right" sx={{ display: { xs: "none", sm: "table-cell" }, fontVariantNumeric: "tabular-nums" }}>
                    {formatNumber(r.attempts)}
                  </TableCell>
                  <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{when(r.shownAt)}</TableCell>
                  <TableCell sx={{ display: { xs: "none", md: "table-cell" }, whiteSpace: "nowrap" }}>{when(r.clickedAt)}</TableCell>
                  <TableCell sx={{ display: { xs: "none", lg: "table-cell" }, whiteSpace: "nowrap" }}>{when(r.closedAt)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {state.next !== null && (
            <Stack sx={{ p: 2, alignItems: "center" }}>
              <Button variant="outlined" onClick={() => void loadMore()} disabled={state.loadingMore}>
                {t("people.recipients.loadMore")}
              </Button>
            </Stack>
          )}
        </>
      )}
    </Card>
  );
}
