import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import RssFeedOutlined from "@mui/icons-material/RssFeedOutlined";
import type { Feed, FeedsResponse } from "../../../shared/api/feeds.js";
import { errorText } from "../api/error-text.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceConfirm } from "../components/ResourceConfirm.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { RowActions, RowTextAction } from "../components/ResourceRowActions.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { useNotice } from "../components/useNotice.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { AddFeedDialog } from "./AddFeedDialog.js";
import { FeedItemsDialog } from "./FeedItemsDialog.js";

const MONOSPACE = "ui-monospace, SFMono-Regular, Menlo, monospace";

/**
 * Feeds (admin): the site's RSS/Atom feeds whose new items become sends. Per feed: who it goes to,
 * the mode, polls, new items, the last success and the last error in pt-BR; "Ler agora", the
 * items (drafts approved or dismissed there), pause and delete.
 */
export function FeedsPage() {
  const { t } = useTranslation();
  const { feeds: api, timeZone } = useDashboardServices();
  const feeds = useResource(useCallback(() => api.listFeeds(), [api]));
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Feed | null>(null);
  const [viewing, setViewing] = useState<Feed | null>(null);
  const [noticeElement, showNotice] = useNotice();

  const replace = (feed: Feed) => feeds.update((data: FeedsResponse) => ({ ...data, feeds: data.feeds.map((f) => (f.id === feed.id ? feed : f)) }));

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

  return (
    <>
      <ResourceListPage
        title={t("feeds.page.title")}
        subtitle={t("feeds.page.intro")}
        action={
          <Button variant="contained" startIcon={<Add />} onClick={() => setAdding(true)}>
            {t("feeds.page.add")}
          </Button>
        }
        list={feeds}
        isEmpty={(data) => data.feeds.length === 0}
        empty={<EmptyState icon={<RssFeedOutlined />} title={t("feeds.page.empty")} text={t("feeds.page.emptyText")} />}
      >
        {(data) => (
          <ResourceTable
            container
            rows={data.feeds}
            label={t("feeds.page.tableLabel")}
            testId="feeds-table"
            rowKey={(feed) => feed.id}
            rowTestId="feed-row"
            rowData={(feed) => ({ "data-url": feed.url })}
            columns={[
              {
                header: t("feeds.page.columns.feed"),
                sx: { overflowWrap: "anywhere" },
                cell: (feed) => (
                  <>
                    {feed.title && <Typography variant="body2" sx={{ fontWeight: 500 }}>{feed.title}</Typography>}
                    <Typography sx={{ fontFamily: MONOSPACE, fontSize: "0.8125rem" }}>{feed.url}</Typography>
                    {feed.pending > 0 && (
                      <Typography variant="body2" color="primary" sx={{ fontWeight: 500 }}>
                        {t("feeds.page.pending", { count: feed.pending })}
                      </Typography>
                    )}
                  </>
                ),
              },
              { header: t("feeds.page.columns.audience"), from: "md", cell: (feed) => (feed.channel === null ? t("feeds.page.everyone") : feed.channel.name) },
              { header: t("feeds.page.columns.mode"), from: "md", cell: (feed) => t(`feeds.modes.${feed.mode}`) },
              {
                header: t("feeds.page.columns.polls"),
                align: "right",
                testId: "feed-polls",
                cell: (feed) => (
                  <>
                    {feed.polls}
                    {feed.errors > 0 && (
                      <Typography variant="body2" color="text.secondary">
                        {t("feeds.page.errorsCount", { count: feed.errors })}
                      </Typography>
                    )}
                  </>
                ),
              },
              { header: t("feeds.page.columns.items"), align: "right", testId: "feed-items-found", cell: (feed) => feed.itemsFound },
              {
                header: t("feeds.page.columns.lastSuccess"),
                from: "md",
                sx: { whiteSpace: "nowrap" },
                testId: "feed-last-success",
                cell: (feed) => (feed.lastSuccessAt === null ? t("feeds.page.never") : formatDateTime(feed.lastSuccessAt, timeZone)),
              },
              { header: t("feeds.page.columns.status"), cell: status },
            ]}
            actions={{
              header: t("feeds.page.columns.actions"),
              cell: (feed) => (
                <RowActions>
                  <Switch
                    checked={feed.enabled}
                    onChange={(_e, checked) => void act(() => api.updateFeed(feed.id, { enabled: checked }), t(checked ? "feeds.page.enabledChanged" : "feeds.page.disabledChanged"))}
                    slotProps={{ input: { "aria-label": t("feeds.page.enabledNamed", { url: feed.url }) } }}
                  />
                  <RowTextAction text={t("feeds.page.items")} label={t("feeds.page.itemsNamed", { url: feed.url })} onClick={() => setViewing(feed)} />
                  <RowTextAction text={t("feeds.page.pollNow")} label={t("feeds.page.pollNowNamed", { url: feed.url })} onClick={() => void act(() => api.pollFeed(feed.id), t("feeds.page.pollRequested"))} />
                  <RowTextAction color="error" text={t("feeds.page.delete")} label={t("feeds.page.deleteNamed", { url: feed.url })} onClick={() => setDeleting(feed)} />
                </RowActions>
              ),
            }}
          />
        )}
      </ResourceListPage>

      <AddFeedDialog
        open={adding}
        minIntervalSeconds={feeds.resource.status === "ready" ? feeds.resource.data.minIntervalSeconds : 60}
        defaultIntervalSeconds={feeds.resource.status === "ready" ? feeds.resource.data.defaultIntervalSeconds : 300}
        onClose={() => setAdding(false)}
        onCreated={(feed) => {
          feeds.update((data: FeedsResponse) => ({ ...data, feeds: [...data.feeds, feed] }));
          showNotice({ severity: "success", text: t("feeds.page.created") });
        }}
      />
      <FeedItemsDialog feed={viewing} onClose={() => setViewing(null)} onDecided={() => void feeds.reload()} />
      <ResourceConfirm
        target={deleting}
        title={() => t("feeds.page.deleteConfirmTitle")}
        text={(feed) => t("feeds.page.deleteConfirm", { url: feed.url })}
        confirmLabel={t("feeds.page.delete")}
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async (target) => {
          await api.deleteFeed(target.id);
          feeds.update((data: FeedsResponse) => ({ ...data, feeds: data.feeds.filter((f) => f.id !== target.id) }));
          showNotice({ severity: "success", text: t("feeds.page.deleted") });
        }}
      />
      {noticeElement}
    </>
  );
}
