import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import BookmarksOutlined from "@mui/icons-material/BookmarksOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import type { Template, TemplateAudience } from "../api/templates-api.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceConfirm } from "../components/ResourceConfirm.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { RowActions, RowIconAction, RowTextAction } from "../components/ResourceRowActions.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { useNotice } from "../components/useNotice.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS, composePath } from "../paths.js";
import { useDashboardServices } from "../services.js";

type Translate = ReturnType<typeof useTranslation>["t"];

/** Modelos: saved send contents. A template opens in compose, where it is used, changed and saved again. */
export function TemplatesPage() {
  const { t } = useTranslation();
  const { templates: api, audience: audienceApi, segments: segmentsApi, timeZone } = useDashboardServices();
  const templates = useResource(useCallback(() => api.listTemplates(), [api]));
  // Names for the audience column: channels and saved segments (their slugs and ids meanwhile).
  const { resource: channels } = useResource(useCallback(() => audienceApi.listChannels(), [audienceApi]));
  const { resource: segments } = useResource(useCallback(() => segmentsApi.listSegments(), [segmentsApi]));
  const [deleting, setDeleting] = useState<Template | null>(null);
  const [notice, showNotice] = useNotice();

  const names = {
    channel: (slug: string) => (channels.status === "ready" ? channels.data.find((channel) => channel.slug === slug)?.name : undefined) ?? slug,
    segment: (id: string) => (segments.status === "ready" ? segments.data.find((segment) => segment.id === id)?.name : undefined) ?? t("templates.page.segmentNumber", { id }),
  };

  return (
    <>
      <ResourceListPage
        title={t("templates.page.title")}
        subtitle={t("templates.page.subtitle")}
        action={
          <Button variant="contained" startIcon={<Add />} component={RouterLink} to={DASHBOARD_PATHS.compose} sx={{ flexShrink: 0, whiteSpace: "nowrap" }}>
            {t("templates.page.new")}
          </Button>
        }
        list={templates}
        empty={<EmptyState icon={<BookmarksOutlined />} title={t("templates.page.emptyTitle")} text={t("templates.page.emptyText")} />}
      >
        {(data) => (
          <ResourceTable
            container
            rows={data}
            label={t("templates.page.title")}
            testId="templates-table"
            rowKey={(template) => template.id}
            rowTestId="template-row"
            rowData={(template) => ({ "data-name": template.name })}
            columns={[
              {
                header: t("templates.page.columns.name"),
                sx: { overflowWrap: "anywhere" },
                cell: (template) => (
                  <>
                    <Link component={RouterLink} to={composePath({ template: template.id })}>
                      {template.name}
                    </Link>
                    <Typography variant="body2" color="text.secondary">
                      {template.title}
                    </Typography>
                  </>
                ),
              },
              { header: t("templates.page.columns.audience"), from: "md", sx: { overflowWrap: "anywhere" }, cell: (template) => audienceText(t, template.audience, names) },
              { header: t("templates.page.columns.updatedAt"), from: "md", sx: { whiteSpace: "nowrap" }, cell: (template) => formatDateTime(template.updatedAt, timeZone) },
            ]}
            actions={{
              header: t("templates.page.columns.actions"),
              showHeader: true,
              cell: (template) => (
                <RowActions wrap={false}>
                  <RowTextAction
                    variant="outlined"
                    to={composePath({ template: template.id })}
                    text={t("templates.page.use")}
                    label={t("templates.page.useNamed", { name: template.name })}
                  />
                  <RowIconAction
                    color="error"
                    icon={<DeleteOutline />}
                    title={t("templates.page.delete")}
                    label={t("templates.page.deleteNamed", { name: template.name })}
                    onClick={() => setDeleting(template)}
                  />
                </RowActions>
              ),
            }}
          />
        )}
      </ResourceListPage>
      <ResourceConfirm
        target={deleting}
        title={() => t("templates.page.deleteTitle")}
        text={(template) => t("templates.page.deleteText", { name: template.name })}
        confirmLabel={t("templates.page.delete")}
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async (target) => {
          await api.deleteTemplate(target.id);
          templates.update((list) => list.filter((template) => template.id !== target.id));
          showNotice({ severity: "success", text: t("templates.page.deleted", { name: target.name }) });
        }}
      />
      {notice}
    </>
  );
}

/** "Escolhido no envio", "Todos os assinantes", "Canais Obras, Eventos", "Segmento “VIP”", with "· 2 sites" when narrowed. */
function audienceText(t: Translate, audience: TemplateAudience | null, names: { channel: (slug: string) => string; segment: (id: string) => string }): string {
  if (audience === null) return t("templates.page.audience.none");
  const base =
    audience.type === "channels"
      ? t("templates.page.audience.channels", { count: audience.channels.length, channels: new Intl.ListFormat("pt-BR").format(audience.channels.map(names.channel)) })
      : audience.type === "segment"
        ? t("templates.page.audience.segment", { name: names.segment(audience.segment) })
        : t("templates.page.audience.all");
  const sites = audience.sites?.length ?? 0;
  return sites === 0 ? base : t("templates.page.audience.sites", { audience: base, count: sites });
}
