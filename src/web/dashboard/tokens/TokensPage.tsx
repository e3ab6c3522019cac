import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import KeyOutlined from "@mui/icons-material/KeyOutlined";
import type { ApiToken } from "../api/types.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceConfirm } from "../components/ResourceConfirm.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { RowTextAction } from "../components/ResourceRowActions.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { useNotice } from "../components/useNotice.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { CreateTokenDialog } from "./CreateTokenDialog.js";

const MONOSPACE = "ui-monospace, SFMono-Regular, Menlo, monospace";

/** Tokens de API (admin): what scripts use to publish; listed, created (secret once), revoked. */
export function TokensPage() {
  const { t } = useTranslation();
  const { api, timeZone } = useDashboardServices();
  const tokens = useResource(useCallback(() => api.listTokens(), [api]));
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [noticeElement, showNotice] = useNotice();
  const scope = (token: ApiToken) => t(`dashboard.tokens.scopes.${token.scope}`);

  return (
    <>
      <ResourceListPage
        title={t("dashboard.tokens.title")}
        subtitle={t("dashboard.tokens.subtitle")}
        action={
          <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
            {t("dashboard.tokens.new")}
          </Button>
        }
        list={tokens}
        empty={<EmptyState icon={<KeyOutlined />} title={t("dashboard.tokens.emptyTitle")} text={t("dashboard.tokens.emptyText")} />}
      >
        {(data) => (
          <ResourceTable
            container
            rows={data}
            label={t("dashboard.tokens.title")}
            testId="tokens-table"
            rowKey={(token) => token.id}
            rowTestId="token-row"
            rowData={(token) => ({ "data-name": token.name })}
            rowSx={(token) => (token.revokedAt !== null ? { "& td": { color: "text.secondary" } } : undefined)}
            columns={[
              {
                header: t("dashboard.tokens.columns.name"),
                cell: (token) => (
                  <>
                    <Typography sx={{ fontWeight: 500 }}>{token.name}</Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ fontFamily: MONOSPACE }}>
                      {t("dashboard.tokens.prefix", { prefix: token.prefix })}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ display: { sm: "none" } }}>
                      {scope(token)}
                    </Typography>
                  </>
                ),
              },
              { header: t("dashboard.tokens.columns.scope"), from: "sm", cell: scope },
              {
                header: t("dashboard.tokens.columns.created"),
                from: "md",
                sx: { whiteSpace: "nowrap" },
                cell: (token) => (
                  <>
                    {formatDateTime(token.createdAt, timeZone)}
                    <Typography variant="body2" color="text.secondary">
                      {t("dashboard.tokens.by", { name: token.createdBy.name })}
                    </Typography>
                  </>
                ),
              },
              {
                header: t("dashboard.tokens.columns.lastUsed"),
                from: "md",
                sx: { whiteSpace: "nowrap" },
                cell: (token) => (token.lastUsedAt ? formatDateTime(token.lastUsedAt, timeZone) : t("dashboard.tokens.neverUsed")),
              },
              {
                header: t("dashboard.tokens.columns.status"),
                cell: (token) => {
                  const revoked = token.revokedAt !== null;
                  return (
                    <Chip
                      size="small"
                      data-testid="token-status"
                      color={revoked ? "default" : "success"}
                      variant={revoked ? "outlined" : "filled"}
                      label={revoked ? t("dashboard.tokens.status.revoked") : t("dashboard.tokens.status.active")}
                    />
                  );
                },
              },
            ]}
            actions={{
              cell: (token) =>
                token.revokedAt === null && (
                  <RowTextAction color="error" text={t("dashboard.tokens.revoke")} label={t("dashboard.tokens.revokeNamed", { name: token.name })} onClick={() => setRevoking(token)} />
                ),
            }}
          />
        )}
      </ResourceListPage>

      <CreateTokenDialog open={creating} onClose={() => setCreating(false)} onCreated={(token) => tokens.update((tokens) => [token, ...tokens])} />
      <ResourceConfirm
        target={revoking}
        title={(token) => t("dashboard.tokens.revokeTitle", { name: token.name })}
        text={() => t("dashboard.tokens.revokeText")}
        confirmLabel={t("dashboard.tokens.revoke")}
        destructive
        onClose={() => setRevoking(null)}
        onConfirm={async (target) => {
          await api.revokeToken(target.id);
          // The server keeps revoked tokens (for the record); show it as such until the next load.
          tokens.update((tokens) => tokens.map((tk) => (tk.id === target.id ? { ...tk, revokedAt: new Date().toISOString() } : tk)));
          showNotice({ severity: "success", text: t("dashboard.tokens.revoked", { name: target.name }) });
        }}
      />
      {noticeElement}
    </>
  );
}
