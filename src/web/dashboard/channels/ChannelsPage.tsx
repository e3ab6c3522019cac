import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import AddOutlined from "@mui/icons-material/AddOutlined";
import ArchiveOutlined from "@mui/icons-material/ArchiveOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import UnarchiveOutlined from "@mui/icons-material/UnarchiveOutlined";
import type { Channel } from "../../../shared/api/channels.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceConfirm } from "../components/ResourceConfirm.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { RowIconAction } from "../components/ResourceRowActions.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { useNotice } from "../components/useNotice.js";
import { formatNumber } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useCurrentUser } from "../session/session-context.js";
import { ChannelDialog } from "./ChannelDialog.js";
import { useDashboardServices } from "../services.js";

/** Canais: admins create, rename and archive; publishers see the list and the counts. */
export function ChannelsPage() {
  const { t } = useTranslation();
  const { audience: api } = useDashboardServices();
  const admin = useCurrentUser().role === "admin";
  const channels = useResource(useCallback(() => api.listChannels(), [api]));
  const [dialog, setDialog] = useState<{ editing: Channel | null } | null>(null);
  const [archiving, setArchiving] = useState<Channel | null>(null);
  const [noticeElement, setNotice] = useNotice();

  const replace = (channel: Channel) => channels.update((list) => (list.some((c) => c.id === channel.id) ? list.map((c) => (c.id === channel.id ? channel : c)) : [...list, channel]));

  const create = () => setDialog({ editing: null });

  return (
    <>
      <ResourceListPage
        title={t("channels.title")}
        subtitle={t("channels.subtitle")}
        action={
          admin ? (
            <Button variant="contained" startIcon={<AddOutlined />} onClick={create}>
              {t("channels.new")}
            </Button>
          ) : undefined
        }
        note={admin ? undefined : t("channels.readOnly")}
        list={channels}
        empty={
          <EmptyState
            icon={<ForumOutlined />}
            title={t("channels.emptyTitle")}
            text={admin ? t("channels.emptyText") : t("channels.emptyTextPublisher")}
            action={
              admin ? (
                <Button variant="outlined" onClick={create}>
                  {t("channels.new")}
                </Button>
              ) : undefined
            }
          />
        }
      >
        {(data) => (
          <ResourceTable
            rows={data}
            label={t("channels.title")}
            testId="channels-table"
            rowKey={(channel) => channel.id}
            rowTestId="channel-row"
            rowData={(channel) => ({ "data-slug": channel.slug })}
            columns={[
              {
                header: t("channels.columns.channel"),
                sxOf: (channel) => ({ color: channel.archived ? "text.secondary" : undefined, "& .MuiTypography-root": channel.archived ? { color: "text.secondary" } : {} }),
                cell: (channel) => (
                  <>
                    <Typography sx={{ fontWeight: 500, overflowWrap: "anywhere" }}>{channel.name}</Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ fontFamily: "monospace", overflowWrap: "anywhere" }}>
                      {channel.slug}
                    </Typography>
                    {channel.description && (
                      <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
                        {channel.description}
                      </Typography>
                    )}
                    {/* On phones the state column is hidden: its chips move here. */}
                    <Stack direction="row" spacing={0.5} sx={{ mt: 0.5, display: { xs: "flex", sm: "none" } }}>
                      <ChannelChips channel={channel} />
                    </Stack>
                  </>
                ),
              },
              { header: t("channels.columns.subscribers"), align: "right", testId: "channel-subscribers", cell: (channel) => formatNumber(channel.subscribers) },
              {
                header: t("channels.columns.state"),
                from: "sm",
                cell: (channel) => (
                  <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: "wrap" }}>
                    <ChannelChips channel={channel} />
                  </Stack>
                ),
              },
            ]}
            actions={
              admin
                ? {
                    sx: { whiteSpace: "nowrap" },
                    cell: (channel) => (
                      <>
                        <RowIconAction icon={<EditOutlined />} title={t("channels.edit")} label={t("channels.editNamed", { name: channel.name })} onClick={() => setDialog({ editing: channel })} />
                        <RowIconAction
                          icon={channel.archived ? <UnarchiveOutlined /> : <ArchiveOutlined />}
                          title={channel.archived ? t("channels.unarchive") : t("channels.archive")}
                          label={channel.archived ? t("channels.unarchiveNamed", { name: channel.name }) : t("channels.archiveNamed", { name: channel.name })}
                          onClick={() => setArchiving(channel)}
                        />
                      </>
                    ),
                  }
                : undefined
            }
          />
        )}
      </ResourceListPage>

      <ChannelDialog
        open={dialog !== null}
        editing={dialog?.editing ?? null}
        onClose={() => setDialog(null)}
        onSaved={(channel) => {
          const created = dialog?.editing === null;
          setDialog(null);
          replace(channel);
          setNotice({ severity: "success", text: created ? t("channels.created", { name: channel.name }) : t("channels.saved", { name: channel.name }) });
        }}
      />
      <ResourceConfirm
        target={archiving}
        title={(channel) => (channel.archived ? t("channels.unarchiveTitle", { name: channel.name }) : t("channels.archiveTitle", { name: channel.name }))}
        text={(channel) => (channel.archived ? t("channels.unarchiveText") : t("channels.archiveText", { count: channel.subscribers, formatted: formatNumber(channel.subscribers) }))}
        confirmLabel={(channel) => (channel.archived ? t("channels.unarchive") : t("channels.archive"))}
        destructive={(channel) => !channel.archived}
        onClose={() => setArchiving(null)}
        onConfirm={async (channel) => {
          const changed = await api.updateChannel(channel.id, { archived: !channel.archived });
          replace(changed);
          setNotice({ severity: "success", text: changed.archived ? t("channels.archivedDone", { name: changed.name }) : t("channels.unarchivedDone", { name: changed.name }) });
        }}
      />
      {noticeElement}
    </>
  );
}

function ChannelChips({ channel }: { channel: Channel }) {
  const { t } = useTranslation();
  return (
    <>
      {channel.archived ? <Chip size="small" label={t("channels.archived")} /> : <Chip size="small" color="success" variant="outlined" label={t("channels.active")} />}
      {channel.isDefault && (
        <Tooltip title={t("channels.defaultHint")}>
          <Chip size="small" color="primary" variant="outlined" label={t("channels.default")} />
        </Tooltip>
      )}
    </>
  );
}
