import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Switch from "@mui/material/Switch";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import WebhookOutlined from "@mui/icons-material/WebhookOutlined";
import type { Webhook } from "../../../shared/api/webhooks.js";
import { errorText } from "../api/error-text.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceConfirm } from "../components/ResourceConfirm.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { RowActions, RowTextAction } from "../components/ResourceRowActions.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { useNotice } from "../components/useNotice.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { CreateWebhookDialog } from "./CreateWebhookDialog.js";
import { WebhookMessagesDialog } from "./WebhookMessagesDialog.js";

/** Webhooks (admin): receivers of signed events; created (secret once), switched on/off, tested, deleted, their deliveries seen. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const { webhooks: api } = useDashboardServices();
  const webhooks = useResource(useCallback(() => api.listWebhooks(), [api]));
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [viewing, setViewing] = useState<Webhook | null>(null);
  const [noticeElement, showNotice] = useNotice();

  const replace = (webhook: Webhook) => webhooks.update((list) => list.map((w) => (w.id === webhook.id ? webhook : w)));

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

  return (
    <>
      <ResourceListPage
        title={t("webhooks.title")}
        subtitle={t("webhooks.subtitle")}
        action={
          <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
            {t("webhooks.new")}
          </Button>
        }
        list={webhooks}
        empty={<EmptyState icon={<WebhookOutlined />} title={t("webhooks.emptyTitle")} text={t("webhooks.emptyText")} />}
      >
        {(data) => (
          <ResourceTable
            container
            rows={data}
            label={t("webhooks.title")}
            testId="webhooks-table"
            rowKey={(webhook) => webhook.id}
            rowTestId="webhook-row"
            rowData={(webhook) => ({ "data-url": webhook.url })}
            columns={[
              {
                header: t("webhooks.columns.url"),
                sx: { overflowWrap: "anywhere" },
                cell: (webhook) => (
                  <>
                    <Typography sx={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", fontSize: "0.875rem" }}>{webhook.url}</Typography>
                    {webhook.description && (
                      <Typography variant="body2" color="text.secondary">
                        {webhook.description}
                      </Typography>
                    )}
                  </>
                ),
              },
              {
                header: t("webhooks.columns.events"),
                from: "md",
                cell: (webhook) => (
                  <Tooltip title={webhook.events.map((e) => t(`webhooks.events.${e}`)).join(", ")}>
                    <Typography variant="body2">{t("webhooks.eventCount", { count: webhook.events.length })}</Typography>
                  </Tooltip>
                ),
              },
              {
                header: t("webhooks.columns.status"),
                cell: (webhook) => (
                  <Switch
                    checked={webhook.enabled}
                    onChange={(_e, checked) => void setEnabled(webhook, checked)}
                    slotProps={{ input: { "aria-label": t("webhooks.enabledNamed", { url: webhook.url }) } }}
                  />
                ),
              },
            ]}
            actions={{
              cell: (webhook) => (
                <RowActions>
                  <RowTextAction text={t("webhooks.messages")} label={t("webhooks.messagesNamed", { url: webhook.url })} onClick={() => setViewing(webhook)} />
                  <RowTextAction text={t("webhooks.test")} label={t("webhooks.testNamed", { url: webhook.url })} onClick={() => void test(webhook)} />
                  <RowTextAction color="error" text={t("webhooks.delete")} label={t("webhooks.deleteNamed", { url: webhook.url })} onClick={() => setDeleting(webhook)} />
                </RowActions>
              ),
            }}
          />
        )}
      </ResourceListPage>

      <CreateWebhookDialog open={creating} onClose={() => setCreating(false)} onCreated={(webhook) => webhooks.update((list) => [...list, webhook])} />
      <WebhookMessagesDialog webhook={viewing} onClose={() => setViewing(null)} />
      <ResourceConfirm
        target={deleting}
        title={() => t("webhooks.deleteTitle")}
        text={(webhook) => t("webhooks.deleteText", { url: webhook.url })}
        confirmLabel={t("webhooks.delete")}
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async (target) => {
          await api.deleteWebhook(target.id);
          webhooks.update((list) => list.filter((w) => w.id !== target.id));
          showNotice({ severity: "success", text: t("webhooks.deleted") });
        }}
      />
      {noticeElement}
    </>
  );
}
