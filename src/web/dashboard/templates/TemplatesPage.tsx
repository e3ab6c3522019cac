import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import BookmarksOutlined from "@mui/icons-material/BookmarksOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import type { Template, TemplateAudience } from "../api/templates-api.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { EmptyState } from "../components/EmptyState.js";
import { PageHeading } from "../components/PageHeading.js";
import { ResourceView } from "../components/ResourceView.js";
import { useNotice } from "../components/useNotice.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { DASHBOARD_PATHS, composePath } from "../paths.js";
import { useDashboardServices } from "../services.js";

const fromMd = { display: { xs: "none", md: "table-cell" } } as const;

type Translate = ReturnType<typeof useTranslation>["t"];

/** Modelos: saved send contents. A template opens in compose, where it is used, changed and saved again. */
export function TemplatesPage() {
  const { t } = useTranslation();
  const { templates: api, audience: audienceApi, segments: segmentsApi, timeZone } = useDashboardServices();
  const { resource, reload, update } = useResource(useCallback(() => api.listTemplates(), [api]));
  // Names for the audience column: channels and saved segments (their slugs and ids meanwhile).
  const { resource: channels } = useResource(useCallback(() => audienceApi.listChannels(), [audienceApi]));
  const { resource: segments } = useResource(useCallback(() => segmentsApi.listSegments(), [segmentsApi]));
  const [deleting, setDeleting] = useState<Template | null>(null);
  const [notice, showNotice] = useNotice();

  const names = {
    channel: (slug: string) => (channels.status === "ready" ? channels.data.find((channel) => channel.slug === slug)?.name : undefined) ?? slug,
    segment: (id: string) => (segments.status === "ready" ? segments.data.find((segment) => segment.id === id)?.name : undefined) ?? t("templates.page.segmentNumber", { id }),
  };

  const newButton = (
    <Button variant="contained" startIcon={<Add />} component={RouterLink} to={DASHBOARD_PATHS.compose} sx={{ flexShrink: 0, whiteSpace: "nowrap" }}>
      {t("templates.page.new")}
    </Button>
  );

  return (
    <>
      <PageHeading title={t("templates.page.title")} subtitle={t("templates.page.subtitle")} action={newButton} />
      <Card variant="outlined">
        <ResourceView
          resource={resource}
          onRetry={reload}
          isEmpty={(data) => data.length === 0}
          empty={<EmptyState icon={<BookmarksOutlined />} title={t("templates.page.emptyTitle")} text={t("templates.page.emptyText")} />}
        >
          {(data) => (
            <TableContainer>
              <Table aria-label={t("templates.page.title")} data-testid="templates-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t("templates.page.columns.name")}</TableCell>
                    <TableCell sx={fromMd}>{t("templates.page.columns.audience")}</TableCell>
                    <TableCell sx={fromMd}>{t("templates.page.columns.updatedAt")}</TableCell>
                    <TableCell align="right">{t("templates.page.columns.actions")}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.map((template) => (
                    <TableRow key={template.id} data-testid="template-row" data-name={template.name}>
                      <TableCell sx={{ overflowWrap: "anywhere" }}>
                        <Link component={RouterLink} to={composePath({ template: template.id })}>
                          {template.name}
                        </Link>
                        <Typography variant="body2" color="text.secondary">
                          {template.title}
                        </Typography>
                      </TableCell>
                      <TableCell sx={{ ...fromMd, overflowWrap: "anywhere" }}>{audienceText(t, template.audience, names)}</TableCell>
                      <TableCell sx={{ ...fromMd, whiteSpace: "nowrap" }}>{formatDateTime(template.updatedAt, timeZone)}</TableCell>
                      <TableCell align="right">
                        <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end", alignItems: "center" }}>
                          <Button size="small" variant="outlined" component={RouterLink} to={composePath({ template: template.id })} aria-label={t("templates.page.useNamed", { name: template.name })}>
                            {t("templates.page.use")}
                          </Button>
                          <Tooltip title={t("templates.page.delete")}>
                            <IconButton color="error" onClick={() => setDeleting(template)} aria-label={t("templates.page.deleteNamed", { name: template.name })}>
                              <DeleteOutline />
                            </IconButton>
                          </Tooltip>
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
      <ConfirmDialog
        open={deleting !== null}
        title={t("templates.page.deleteTitle")}
        text={t("templates.page.deleteText", { name: deleting?.name ?? "" })}
        confirmLabel={t("templates.page.delete")}
        destructive
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          if (deleting === null) return;
          await api.deleteTemplate(deleting.id);
          update((list) => list.filter((template) => template.id !== deleting.id));
          showNotice({ severity: "success", text: t("templates.page.deleted", { name: deleting.name }) });
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
