import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Chip from "@mui/material/Chip";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import Add from "@mui/icons-material/Add";
import KeyOutlined from "@mui/icons-material/KeyOutlined";
import type { ApiToken } from "../api/types.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceView } from "../components/ResourceView.js";
import { PageHeading } from "../components/PageHeading.js";
import { useNotice } from "../components/useNotice.js";
import { VisuallyHidden } from "../components/VisuallyHidden.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { CreateTokenDialog } from "./CreateTokenDialog.js";

const wide = { display: { xs: "none", md: "table-cell" } } as const;
const fromSm = { display: { xs: "none", sm: "table-cell" } } as const;

/** Tokens de API (admin): what scripts use to publish; listed, created (secret once), revoked. */
export function TokensPage() {
  const { t } = useTranslation();
  const { api, timeZone } = useDashboardServices();
  const { resource, reload, update } = useResource(useCallback(() => api.listTokens(), [api]));
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [noticeElement, showNotice] = useNotice();

  const createButton = (
    <Button variant="contained" startIcon={<Add />} onClick={() => setCreating(true)}>
      {t("dashboard.tokens.new")}
    </Button>
  );

  return (
    <>
      <PageHeading title={t("dashboard.tokens.title")} subtitle={t("dashboard.tokens.subtitle")} action={createButton} />
      <Card variant="outlined">
        <ResourceView
          resource={resource}
          onRetry={reload}
          isEmpty={(data) => data.length === 0}
          empty={
            <EmptyState icon={<KeyOutlined />} title={t("dashboard.tokens.emptyTitle")} text={t("dashboard.tokens.emptyText")} />
          }
        >
          {(data) => (
            <TableContainer>
              <Table aria-label={t("dashboard.tokens.title")} data-testid="tokens-table">
                <TableHead>
                  <TableRow>
                    <TableCell>{t("dashboard.tokens.columns.name")}</TableCell>
                    <TableCell sx={fromSm}>{t("dashboard.tokens.columns.scope")}</TableCell>
                    <TableCell sx={wide}>{t("dashboard.tokens.columns.created")}</TableCell>
                    <TableCell sx={wide}>{t("dashboard.tokens.columns.lastUsed")}</TableCell>
                    <TableCell>{t("dashboard.tokens.columns.status")}</TableCell>
                    <TableCell align="right">
                      <VisuallyHidden>{t("dashboard.common.actions")}</VisuallyHidden>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.map((token) => {
                    const revoked = token.revokedAt !== null;
                    return (
                      <TableRow key={token.id} data-testid="token-row" data-name={token.name} sx={revoked ? { "& td": { color: "text.disabled" } } : undefined}>
                        <TableCell>
                          <Typography sx={{ fontWeight: 500 }}>{token.name}</Typography>
                          <Typography variant="body2" color="text.secondary" sx={{ fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace" }}>
                            {t("dashboard.tokens.prefix", { prefix: token.prefix })}
                          </Typography>
                          <Typography variant="body2" color="text.secondary" sx={{ display: { sm: "none" } }}>
                            {t(`dashboard.tokens.scopes.${token.scope}`)}
                          </Typography>
                        </TableCell>
                        <TableCell sx={fromSm}>{t(`dashboard.tokens.scopes.${token.scope}`)}</TableCell>
                        <TableCell sx={{ ...wide, whiteSpace: "nowrap" }}>
                          {formatDateTime(token.createdAt, timeZone)}
                          <Typography variant="body2" color="text.secondary">
                            {t("dashboard.tokens.by", { name: token.createdBy.name })}
                          </Typography>
                        </TableCell>
                        <TableCell sx={{ ...wide, whiteSpace: "nowrap" }}>{token.lastUsedAt ? formatDateTime(token.lastUsedAt, timeZone) : t("dashboard.tokens.neverUsed")}</TableCell>
                        <TableCell>
                          <Chip
                            size="small"
                            data-testid="token-status"
                            color={revoked ? "default" : "success"}
                            variant={revoked ? "outlined" : "filled"}
                            label={revoked ? t("dashboard.tokens.status.revoked") : t("dashboard.tokens.status.active")}
                          />
                        </TableCell>
                        <TableCell align="right">
                          {!revoked && (
                            <Button color="error" size="small" onClick={() => setRevoking(token)} aria-label={t("dashboard.tokens.revokeNamed", { name: token.name })}>
                              {t("dashboard.tokens.revoke")}
                            </Button>
                          )}
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </ResourceView>
      </Card>

      <CreateTokenDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(token) => update((tokens) => [token, ...tokens])}
      />
      <ConfirmDialog
        open={revoking !== null}
        title={t("dashboard.tokens.revokeTitle", { name: revoking?.name ?? "" })}
        text={t("dashboard.tokens.revokeText")}
        confirmLabel={t("dashboard.tokens.revoke")}
        destructive
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          if (!revoking) return;
          const target = revoking;
          await api.revokeToken(target.id);
          // The server keeps revoked tokens (for the record); show it as such until the next load.
          update((tokens) => tokens.map((tk) => (tk.id === target.id ? { ...tk, revokedAt: new Date().toISOString() } : tk)));
          showNotice({ severity: "success", text: t("dashboard.tokens.revoked", { name: target.name }) });
        }}
      />
      {noticeElement}
    </>
  );
}
