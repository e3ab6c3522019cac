import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import AddOutlined from "@mui/icons-material/AddOutlined";
import ArchiveOutlined from "@mui/icons-material/ArchiveOutlined";
import EditOutlined from "@mui/icons-material/EditOutlined";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import UnarchiveOutlined from "@mui/icons-material/UnarchiveOutlined";
import type { Channel } from "../../../shared/api/channels.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceView } from "../components/ResourceView.js";
import { PageHeading } from "../components/PageHeading.js";
import { useNotice } from "../components/useNotice.js";
import { VisuallyHidden } from "../components/VisuallyHidden.js";
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
  const { resource, reload, update } = useResource(useCallback(() => api.listChannels(), [api]));
  const [dialog, setDialog] = useState<{ editing: Channel | null } | null>(null);
  const [archiving, setArchiving] = useState<Channel | null>(null);
  const [noticeElement, setNotice] = useNotice();

  const replace = (channel: Channel) => update((list) => (list.some((c) => c.id === channel.id) ? list.map((c) => (c.id === channel.id ? channel : c)) : [...list, channel]));

  return (
    <>
      <PageHeading
        title={t("channels.title")}
        subtitle={t("channels.subtitle")}
        action={
          admin ? (
            <Button variant="contained" startIcon={<AddOutlined />} onClick={() => setDialog({ editing: null })}>
              {t("channels.new")}
            </Button>
          ) : undefined
        }
      />
      {!admin && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t("channels.readOnly")}
        </Typography>
      )}
      <Card variant="outlined">
        <ResourceView
          resource={resource}
          onRetry={reload}
          isEmpty={(data) => data.length === 0}
          empty={
            <EmptyState
              icon={<ForumOutlined />}
              title={t("channels.emptyTitle")}
              text={admin ? t("channels.emptyText") : t("channels.emptyTextPublisher")}
              action={
                admin ? (
                  <Button variant="outlined" onClick={() => setDialog({ editing: null })}>
                    {t("channels.new")}
                  </Button>
                ) : undefined
              }
            />
          }
        >
          {(data) => (
            <Table aria-label={t("channels.title")} data-testid="channels-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t("channels.columns.channel")}</TableCell>
                  <TableCell align="right">{t("channels.columns.subscribers")}</TableCell>
                  <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("channels.columns.state")}</TableCell>
                  {admin && (
                    <TableCell align="right">
                      <VisuallyHidden>{t("dashboard.common.actions")}</VisuallyHidden>
                    </TableCell>
                  )}
                </TableRow>
              </TableHead>
              <TableBody>
                {data.map((channel) => (
                  <TableRow key={channel.id} data-testid="channel-row" data-slug={channel.slug}>
                    <TableCell sx={{ color: channel.archived ? "text.secondary" : undefined, "& .MuiTypography-root": channel.archived ? { color: "text.secondary" } : {} }}>
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
                    </TableCell>
                    <TableCell align="right" data-testid="channel-subscribers">
                      {formatNumber(channel.subscribers)}
                    </TableCell>
                    <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>
                      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: "wrap" }}>
                        <ChannelChips channel={channel} />
                      </Stack>
                    </TableCell>
                    {admin && (
                      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                        <Tooltip title={t("channels.edit")}>
                          <IconButton aria-label={t("channels.editNamed", { name: channel.name })} onClick={() => setDialog({ editing: channel })}>
                            <EditOutlined />
                          </IconButton>
                        </Tooltip>
                        <Tooltip title={channel.archived ? t("channels.unarchive") : t("channels.archive")}>
                          <IconButton
                            aria-label={channel.archived ? t("channels.unarchiveNamed", { name: channel.name }) : t("channels.archiveNamed", { name: channel.name })}
                            onClick={() => setArchiving(channel)}
                          >
                            {channel.archived ? <UnarchiveOutlined /> : <ArchiveOutlined />}
                          </IconButton>
                        </Tooltip>
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </ResourceView>
      </Card>

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
      <ConfirmDialog
        open={archiving !== null}
        title={archiving?.archived ? t("channels.unarchiveTitle", { name: archiving.name }) : t("channels.archiveTitle", { name: archiving?.name ?? "" })}
        text={archiving?.archived ? t("channels.unarchiveText") : t("channels.archiveText", { count: archiving?.subscribers ?? 0, formatted: formatNumber(archiving?.subscribers ?? 0) })}
        confirmLabel={archiving?.archived ? t("channels.unarchive") : t("channels.archive")}
        destructive={!archiving?.archived}
        onClose={() => setArchiving(null)}
        onConfirm={async () => {
          if (!archiving) return;
          const changed = await api.updateChannel(archiving.id, { archived: !archiving.archived });
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
