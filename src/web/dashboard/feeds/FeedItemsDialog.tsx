import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Link from "@mui/material/Link";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { FEED_ITEM_STATUSES, type Feed, type FeedItem } from "../../../shared/api/feeds.js";
import { errorText } from "../api/error-text.js";
import { ResourceView } from "../components/ResourceView.js";
import { VisuallyHidden } from "../components/VisuallyHidden.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";

// The theme's warning colour is too light for small text on white (axe, 4.5:1): drafts use primary.
const STATUS_COLOR = { seen: "default", sent: "success", pending: "primary", dismissed: "default", skipped: "default", refused: "error" } as const;
const ALL = "all";

/** One feed's items, newest first; drafts can be approved (sent once) or dismissed. */
export function FeedItemsDialog({ feed, onClose, onDecided }: { feed: Feed | null; onClose: () => void; onDecided: () => void }) {
  const { t } = useTranslation();
  const { feeds: api, timeZone } = useDashboardServices();
  const [status, setStatus] = useState<FeedItem["status"] | typeof ALL>(ALL);
  const [message, setMessage] = useState<{ severity: "success" | "error"; text: string } | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const id = feed?.id;
  const { resource, reload, update } = useResource(
    useCallback(async () => (id === undefined ? { items: [], total: 0, page: 1, pageSize: 50 } : api.listItems(id, status === ALL ? {} : { status })), [api, id, status]),
  );

  const decide = async (item: FeedItem, decision: "approve" | "dismiss") => {
    if (id === undefined) return;
    setMessage(null);
    setBusyId(item.id);
    try {
      const decided = decision === "approve" ? await api.approveItem(id, item.id) : await api.dismissItem(id, item.id);
      update((data) => ({ ...data, items: data.items.map((i) => (i.id === decided.id ? decided : i)) }));
      setMessage({ severity: "success", text: t(decision === "approve" ? "feeds.items.approved" : "feeds.items.dismissedDone") });
      onDecided();
    } catch (error) {
      setMessage({ severity: "error", text: errorText(t, error) });
    } finally {
      setBusyId(null);
    }
  };

  const close = () => {
    setMessage(null);
    setStatus(ALL);
    onClose();
  };

  return (
    <Dialog open={feed !== null} onClose={close} aria-labelledby="feed-items-title" maxWidth="lg" fullWidth>
      <DialogTitle id="feed-items-title" sx={{ overflowWrap: "anywhere" }}>
        {t("feeds.items.title", { feed: feed?.title ?? feed?.url ?? "" })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            size="small"
            label={t("feeds.items.filterLabel")}
            value={status}
            onChange={(e) => setStatus(e.target.value as FeedItem["status"] | typeof ALL)}
            sx={{ maxWidth: 280 }}
          >
            <MenuItem value={ALL}>{t("feeds.items.all")}</MenuItem>
            {FEED_ITEM_STATUSES.map((s) => (
              <MenuItem key={s} value={s}>
                {t(`feeds.items.statuses.${s}`)}
              </MenuItem>
            ))}
          </TextField>
          {message && (
            <Alert severity={message.severity} role={message.severity === "error" ? "alert" : "status"}>
              {message.text}
            </Alert>
          )}
          <ResourceView resource={resource} onRetry={reload} isEmpty={(data) => data.items.length === 0} empty={<Typography color="text.secondary">{t("feeds.items.empty")}</Typography>}>
            {(data) => (
              <TableContainer>
                <Table size="small" aria-label={t("feeds.items.listLabel")} data-testid="feed-items">
                  <TableHead>
                    <TableRow>
                      <TableCell>{t("feeds.columns.item")}</TableCell>
                      <TableCell>{t("feeds.columns.itemStatus")}</TableCell>
                      <TableCell>{t("feeds.columns.found")}</TableCell>
                      <TableCell align="right">
                        <VisuallyHidden>{t("feeds.page.columns.actions")}</VisuallyHidden>
                      </TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.items.map((item) => (
                      <TableRow key={item.id} data-testid="feed-item-row" data-status={item.status}>
                        <TableCell sx={{ overflowWrap: "anywhere" }}>
                          <Typography variant="body2" sx={{ fontWeight: 500 }}>
                            {item.title}
                          </Typography>
                          {item.summary && (
                            <Typography variant="body2" color="text.secondary">
                              {item.summary}
                            </Typography>
                          )}
                          {item.link && (
                            <Link href={item.link} target="_blank" rel="noopener noreferrer" variant="body2">
                              {t("feeds.items.openLink")}
                            </Link>
                          )}
                        </TableCell>
                        <TableCell>
                          <Chip size="small" variant="outlined" color={STATUS_COLOR[item.status]} label={t(`feeds.items.statuses.${item.status}`)} />
                        </TableCell>
                        <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDateTime(item.createdAt, timeZone)}</TableCell>
                        <TableCell align="right">
                          {item.status === "pending" && (
                            <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
                              <Button size="small" variant="contained" loading={busyId === item.id} onClick={() => void decide(item, "approve")} aria-label={t("feeds.items.approveNamed", { title: item.title })}>
                                {t("feeds.items.approve")}
                              </Button>
                              <Button size="small" disabled={busyId === item.id} onClick={() => void decide(item, "dismiss")} aria-label={t("feeds.items.dismissNamed", { title: item.title })}>
                                {t("feeds.items.dismiss")}
                              </Button>
                            </Stack>
                          )}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            )}
          </ResourceView>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={reload}>{t("feeds.items.reload")}</Button>
        <Button variant="contained" onClick={close}>
          {t("feeds.items.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
