import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Webhook, WebhookMessage } from "../../../shared/api/webhooks.js";
import { errorText } from "../api/error-text.js";
import { ResourceView } from "../components/ResourceView.js";
import { VisuallyHidden } from "../components/VisuallyHidden.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";

const STATUS_COLOR = { pending: "warning", delivered: "success", failed: "error" } as const;

/** One webhook's deliveries, newest first: status, attempts, the receiver's last answer, the next attempt, and "Reenviar". */
export function WebhookMessagesDialog({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { webhooks: api, timeZone } = useDashboardServices();
  const [page, setPage] = useState(1);
  const [actionError, setActionError] = useState<string | null>(null);
  const [resentId, setResentId] = useState<string | null>(null);
  const id = webhook?.id;
  const { resource, reload, update } = useResource(
    useCallback(async () => (id === undefined ? { messages: [], total: 0, page: 1, pageSize: 50 } : api.listMessages(id, page)), [api, id, page]),
  );

  const resend = async (message: WebhookMessage) => {
    if (id === undefined) return;
    setActionError(null);
    try {
      const resent = await api.resendMessage(id, message.id);
      update((data) => ({ ...data, messages: data.messages.map((m) => (m.id === resent.id ? resent : m)) }));
      setResentId(resent.id);
    } catch (error) {
      setActionError(errorText(t, error));
    }
  };

  const lastAnswer = (m: WebhookMessage) =>
    m.lastStatus !== null ? String(m.lastStatus) : m.lastError !== null ? t("webhooks.noAnswer", { error: m.lastError }) : t("webhooks.none");

  return (
    <Dialog open={webhook !== null} onClose={onClose} aria-labelledby="webhook-messages-title" maxWidth="lg" fullWidth>
      <DialogTitle id="webhook-messages-title" sx={{ overflowWrap: "anywhere" }}>
        {t("webhooks.messagesTitle", { url: webhook?.url ?? "" })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {actionError && (
            <Alert severity="error" role="alert">
              {actionError}
            </Alert>
          )}
          {resentId && (
            <Alert severity="success" role="status">
              {t("webhooks.resent")}
            </Alert>
          )}
          <ResourceView resource={resource} onRetry={reload} isEmpty={(data) => data.total === 0} empty={<Typography color="text.secondary">{t("webhooks.messagesEmpty")}</Typography>}>
            {(data) => {
              const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
              return (
                <>
                  <TableContainer>
                    <Table size="small" aria-labelledby="webhook-messages-title" data-testid="webhook-messages">
                      <TableHead>
                        <TableRow>
                          <TableCell>{t("webhooks.messageColumns.event")}</TableCell>
                          <TableCell>{t("webhooks.messageColumns.status")}</TableCell>
                          <TableCell align="right">{t("webhooks.messageColumns.attempts")}</TableCell>
                          <TableCell>{t("webhooks.messageColumns.lastStatus")}</TableCell>
                          <TableCell>{t("webhooks.messageColumns.nextAttempt")}</TableCell>
                          <TableCell>{t("webhooks.messageColumns.created")}</TableCell>
                          <TableCell align="right">
                            <VisuallyHidden>{t("dashboard.common.actions")}</VisuallyHidden>
                          </TableCell>
                        </TableRow>
                      </TableHead>
                      <TableBody>
                        {data.messages.map((m) => (
                          <TableRow key={m.id} data-testid="webhook-message-row" data-status={m.status}>
                            <TableCell>
                              {t(`webhooks.events.${m.eventType}`, { defaultValue: m.eventType })}
                              <Typography variant="body2" color="text.secondary" sx={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" }}>
                                {m.id}
                              </Typography>
                            </TableCell>
                            <TableCell>
                              <Chip size="small" color={STATUS_COLOR[m.status]} variant="outlined" label={t(`webhooks.status.${m.status}`)} />
                            </TableCell>
                            <TableCell align="right">{m.attempts}</TableCell>
                            <TableCell>{lastAnswer(m)}</TableCell>
                            <TableCell sx={{ whiteSpace: "nowrap" }}>{m.nextAttemptAt ? formatDateTime(m.nextAttemptAt, timeZone) : t("webhooks.none")}</TableCell>
                            <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDateTime(m.createdAt, timeZone)}</TableCell>
                            <TableCell align="right">
                              {m.status !== "pending" && (
                                <Button size="small" onClick={() => void resend(m)} aria-label={t("webhooks.resendNamed", { id: m.id })}>
                                  {t("webhooks.resend")}
                                </Button>
                              )}
                            </TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  </TableContainer>
                  {pages > 1 && (
                    <Stack direction="row" spacing={1} sx={{ alignItems: "center", justifyContent: "flex-end" }}>
                      <Button size="small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                        {t("webhooks.previous")}
                      </Button>
                      <Typography variant="body2">{t("webhooks.pageLabel", { page, pages })}</Typography>
                      <Button size="small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                        {t("webhooks.next")}
                      </Button>
                    </Stack>
                  )}
                </>
              );
            }}
          </ResourceView>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={reload}>{t("webhooks.reload")}</Button>
        <Button variant="contained" onClick={onClose}>
          {t("webhooks.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
