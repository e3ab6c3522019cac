import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import RssFeedOutlined from "@mui/icons-material/RssFeedOutlined";
import type { Feed, FeedsResponse } from "../../../shared/api/feeds.js";
import { errorText } from "../api/error-text.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { EmptyState } from "../components/EmptyState.js";
import { PageHeading } from "../components/PageHeading.js";
import { ResourceView } from "../components/ResourceView.js";
import { useNotice } from "../components/useNotice.js";
import { VisuallyHidden } from "../components/VisuallyHidden.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { AddFeedDialog } from "./AddFeedDialog.js";
import { FeedItemsDialog } from "./FeedItemsDialog.js";

const fromMd = { display: { xs: "none", md: "table-cell" } } as const;
const MONOSPACE = "ui-monospace, SFMono-Regular, Menlo, monospace";

/**
 * Feeds (admin): the site's RSS/Atom feeds whose new items become sends. Per feed: who it goes to,
 * the mode, polls, new items, the last success and the last error in pt-BR; "Ler agora", the
 * items (drafts approved or dismissed there), pause and delete.
 */
export function FeedsPage() {
  const { t } = useTranslation();
  const { feeds: api, timeZone } = useDashboardServices();
  const { resource, reload, update } = useResource(useCallback(() => api.listFeeds(), [api]));
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Feed | null>(null);
  const [viewing, setViewing] = useState<Feed | null>(null);
  const [noticeElement, showNotice] = useNotice();

  const replace = (feed: Feed) => update((data: FeedsResponse) => ({ ...data, feeds: data.feeds.map((f) => (f.id === feed.id ? feed : f)) }));

  const act = async (work: () => Promise<Feed>, success: string) => {
    try {
      replace(await work());
      showNotice({ severity: "success", text: success });
    } catch (error) {
      showNotice({ severity: "error", text: errorText(t, error) });
    }
  };

  const status = (feed: Feed) => {
    if (!feed.enabled) return <Chip size="small" variant="outlined" label={t("feeds.page.disabled")} />;
    if (feed.lastError !== null) {
      return (
        <Typography variant="body2" color="error" role="note" data-testid="feed-error">
          {t("feeds.page.errorAt", { at: formatDateTime(feed.lastError.at, timeZone), message: feed.lastError.message })}
        </Typography>
      );
    }
    if (!feed.primed) return <Typography variant="body2">{t("feeds.page.waitingFirstPoll")}</Typography>;
    return <Chip size="small" color="success" variant="outlined" label={t("feeds.page.ok")} />;
  };

  const addButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setAdding(true)}>
      {t("feeds.page.add")}
    </Button>
  );

  return (
    <>
      <PageHeading title={t("feeds.page.title")} subtitle={t("feeds.page.intro")} action={addButton} />
      <Card variant="outlined">
        <ResourceView
          resource={resource}
          onRetry={reload}
          isEmpty={(data) => data.feeds.length === 0}
          empty={<EmptyState icon={<RssFeedOutlined />} title={t("feeds.page.empty")} text={t("feeds.page.emptyText")} />}
        >
          {(data) => (
            <TableContainer>
              <Table aria-label={t("feeds.page.tableLabel")} data-testid="feeds-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t("feeds.page.columns.feed")}</TableCell>
                    <TableCell sx={fromMd}>{t("feeds.page.columns.audience")}</TableCell>
                    <TableCell sx={fromMd}>{t("feeds.page.columns.mode")}</TableCell>
                    <TableCell align="right">{t("feeds.page.columns.polls")}</TableCell>
                    <TableCell align="right">{t("feeds.page.columns.items")}</TableCell>
                    <TableCell sx={fromMd}>{t("feeds.page.columns.lastSuccess")}</TableCell>
                    <TableCell>{t("feeds.page.columns.status")}</TableCell>
                    <TableCell align="right">
                      <VisuallyHidden>{t("feeds.page.columns.actions")}</VisuallyHidden>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.feeds.map((feed) => (
                    <TableRow key={feed.id} data-testid="feed-row" data-url={feed.url}>
                      <TableCell sx={{ overflowWrap: "anywhere" }}>
                        {feed.title && <Typography variant="body2" sx={{ fontWeight: 500 }}>{feed.title}</Typography>}
                        <Typography sx={{ fontFamily: MONOSPACE, fontSize: "0.8125rem" }}>{feed.url}</Typography>
                        {feed.pending > 0 && (
                          <Typography variant="body2" color="primary" sx={{ fontWeight: 500 }}>
                            {t("feeds.page.pending", { count: feed.pending })}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell sx={fromMd}>{feed.channel === null ? t("feeds.page.everyone") : feed.channel.name}</TableCell>
                      <TableCell sx={fromMd}>{t(`feeds.modes.${feed.mode}`)}</TableCell>
                      <TableCell align="right" data-testid="feed-polls">
                        {feed.polls}
                        {feed.errors > 0 && (
                          <Typography variant="body2" color="text.secondary">
                            {t("feeds.page.errorsCount", { count: feed.errors })}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell align="right" data-testid="feed-items-found">
                        {feed.itemsFound}
                      </TableCell>
                      <TableCell sx={{ ...fromMd, whiteSpace: "nowrap" }} data-testid="feed-last-success">
                        {feed.lastSuccessAt === null ? t("feeds.page.never") : formatDateTime(feed.lastSuccessAt, timeZone)}
                      </TableCell>
                      <TableCell>{status(feed)}</TableCell>
                      <TableCell align="right">
                        <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end", alignItems: "center", flexWrap: "wrap" }}>
                          <Switch
                            checked={feed.enabled}
                            onChange={(_e, checked) => void act(() => api.updateFeed(feed.id, { enabled: checked }), t(checked ? "feeds.page.enabledChanged" : "feeds.page.disabledChanged"))}
                            slotProps={{ input: { "aria-label": t("feeds.page.enabledNamed", { url: feed.url }) } }}
                          />
                          <Button size="small" onClick={() => setViewing(feed)} aria-label={t("feeds.page.itemsNamed", { url: feed.url })}>
                            {t("feeds.page.items")}
                          </Button>
                          <Button size="small" onClick={() => void act(() => api.pollFeed(feed.id), t("feeds.page.pollRequested"))} aria-label={t("feeds.page.pollNowNamed", { url: feed.url })}>
                            {t("feeds.page.pollNow")}
                          </Button>
                          <Button size="small" color="error" onClick={() => setDeleting(feed)} aria-label={t("feeds.page.deleteNamed", { url: feed.url })}>
                            {t("feeds.page.delete")}
                          </Button>
                        </Stack>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </ResourceView>
      </Card>

      <AddFeedDialog
        open={adding}
        minIntervalSeconds={resource.status === "ready" ? resource.data.minIntervalSeconds : 60}
        defaultIntervalSeconds={resource.status === "ready" ? resource.data.defaultIntervalSeconds : 300}
        onClose={() => setAdding(false)}
        onCreated={(feed) => {
          update((data: FeedsResponse) => ({ ...data, feeds: [...data.feeds, feed] }));
          showNotice({ severity: "success", text: t("feeds.page.created") });
        }}
      />
      <FeedItemsDialog feed={viewing} onClose={() => setViewing(null)} onDecided={() => void reload()} />
      <ConfirmDialog
        open={deleting !== null}
        title={t("feeds.page.deleteConfirmTitle")}
        text={t("feeds.page.deleteConfirm", { url: deleting?.url ?? "" })}
        confirmLabel={t("feeds.page.delete")}
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          const target = deleting;
          await api.deleteFeed(target.id);
          update((data: FeedsResponse) => ({ ...data, feeds: data.feeds.filter((f) => f.id !== target.id) }));
          showNotice({ severity: "success", text: t("feeds.page.deleted") });
        }}
      />
      {noticeElement}
    </>
  );
}
