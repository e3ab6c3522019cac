import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import WebhookOutlined from "@mui/icons-material/WebhookOutlined";
import type { Webhook } from "../../../shared/api/webhooks.js";
import { errorText } from "../api/error-text.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { EmptyState } from "../components/EmptyState.js";
import { PageHeading } from "../components/PageHeading.js";
import { ResourceView } from "../components/ResourceView.js";
import { useNotice } from "../components/useNotice.js";
import { VisuallyHidden } from "../components/VisuallyHidden.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { CreateWebhookDialog } from "./CreateWebhookDialog.js";
import { WebhookMessagesDialog } from "./WebhookMessagesDialog.js";

const fromMd = { display: { xs: "none", md: "table-cell" } } as const;

/** Webhooks (admin): receivers of signed events; created (secret once), switched on/off, tested, deleted, their deliveries seen. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const { webhooks: api } = useDashboardServices();
  const { resource, reload, update } = useResource(useCallback(() => api.listWebhooks(), [api]));
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [viewing, setViewing] = useState<Webhook | null>(null);
  const [noticeElement, showNotice] = useNotice();

  const replace = (webhook: Webhook) => update((list) => list.map((w) => (w.id === webhook.id ? webhook : w)));

  const setEnabled = async (webhook: Webhook, enabled: boolean) => {
    try {
      replace(await api.updateWebhook(webhook.id, { enabled }));
      showNotice({ severity: "success", text: t(enabled ? "webhooks.enabledChanged" : "webhooks.disabledChanged") });
    } catch (error) {
      showNotice({ severity: "error", text: errorText(t, error) });
    }
  };

  const test = async (webhook: Webhook) => {
    try {
      await api.testWebhook(webhook.id);
      showNotice({ severity: "success", text: t("webhooks.testQueued") });
    } catch (error) {
      showNotice({ severity: "error", text: errorText(t, error) });
    }
  };

  const createButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
      {t("webhooks.new")}
    </Button>
  );

  return (
    <>
      <PageHeading title={t("webhooks.title")} subtitle={t("webhooks.subtitle")} action={createButton} />
      <Card variant="outlined">
        <ResourceView
          resource={resource}
          onRetry={reload}
          isEmpty={(data) => data.length === 0}
          empty={<EmptyState icon={<WebhookOutlined />} title={t("webhooks.emptyTitle")} text={t("webhooks.emptyText")} />}
        >
          {(data) => (
            <TableContainer>
              <Table aria-label={t("webhooks.title")} data-testid="webhooks-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t("webhooks.columns.url")}</TableCell>
                    <TableCell sx={fromMd}>{t("webhooks.columns.events")}</TableCell>
                    <TableCell>{t("webhooks.columns.status")}</TableCell>
                    <TableCell align="right">
                      <VisuallyHidden>{t("dashboard.common.actions")}</VisuallyHidden>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.map((webhook) => (
                    <TableRow key={webhook.id} data-testid="webhook-row" data-url={webhook.url}>
                      <TableCell sx={{ overflowWrap: "anywhere" }}>
                        <Typography sx={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", fontSize: "0.875rem" }}>{webhook.url}</Typography>
                        {webhook.description && (
                          <Typography variant="body2" color="text.secondary">
                            {webhook.description}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell sx={fromMd}>
                        <Tooltip title={webhook.events.map((e) => t(`webhooks.events.${e}`)).join(", ")}>
                          <Typography variant="body2">{t("webhooks.eventCount", { count: webhook.events.length })}</Typography>
                        </Tooltip>
                      </TableCell>
                      <TableCell>
                        <Switch
                          checked={webhook.enabled}
                          onChange={(_e, checked) => void setEnabled(webhook, checked)}
                          slotProps={{ input: { "aria-label": t("webhooks.enabledNamed", { url: webhook.url }) } }}
                        />
                      </TableCell>
                      <TableCell align="right">
                        <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end", flexWrap: "wrap" }}>
                          <Button size="small" onClick={() => setViewing(webhook)} aria-label={t("webhooks.messagesNamed", { url: webhook.url })}>
                            {t("webhooks.messages")}
                          </Button>
                          <Button size="small" onClick={() => void test(webhook)} aria-label={t("webhooks.testNamed", { url: webhook.url })}>
                            {t("webhooks.test")}
                          </Button>
                          <Button size="small" color="error" onClick={() => setDeleting(webhook)} aria-label={t("webhooks.deleteNamed", { url: webhook.url })}>
                            {t("webhooks.delete")}
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

      <CreateWebhookDialog open={creating} onClose={() => setCreating(false)} onCreated={(webhook) => update((list) => [...list, webhook])} />
      <WebhookMessagesDialog webhook={viewing} onClose={() => setViewing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title={t("webhooks.deleteTitle")}
        text={t("webhooks.deleteText", { url: deleting?.url ?? "" })}
        confirmLabel={t("webhooks.delete")}
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          const target = deleting;
          await api.deleteWebhook(target.id);
          update((list) => list.filter((w) => w.id !== target.id));
          showNotice({ severity: "success", text: t("webhooks.deleted") });
        }}
      />
      {noticeElement}
    </>
  );
}
