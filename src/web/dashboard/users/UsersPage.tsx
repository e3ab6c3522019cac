import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import LockResetOutlined from "@mui/icons-material/LockResetOutlined";
import PersonAddAlt from "@mui/icons-material/PersonAddAlt";
import PeopleAltOutlined from "@mui/icons-material/PeopleAltOutlined";
import { errorText } from "../api/error-text.js";
import type { Role, User } from "../api/types.js";
import { EmptyState } from "../components/EmptyState.js";
import { ResourceConfirm } from "../components/ResourceConfirm.js";
import { ResourceListPage } from "../components/ResourceListPage.js";
import { RowIconAction } from "../components/ResourceRowActions.js";
import { ResourceTable } from "../components/ResourceTable.js";
import { useNotice } from "../components/useNotice.js";
import { formatDateTime } from "../format.js";
import { useResource } from "../hooks/useResource.js";
import { useDashboardServices } from "../services.js";
import { useCurrentUser } from "../session/session-context.js";
import { CreateUserDialog } from "./CreateUserDialog.js";
import { ResetPasswordDialog } from "./ResetPasswordDialog.js";

/** Phones: half the cells' side padding, so the columns fit 390 px without the page scrolling sideways. */
const PHONE_CELLS = { "& .MuiTableCell-root": { px: { xs: 1, sm: 2 } } } as const;

/** Usuários (admin): who may sign in to the dashboard, and with which role. */
export function UsersPage() {
  const { t } = useTranslation();
  const { api, timeZone } = useDashboardServices();
  const me = useCurrentUser();
  const users = useResource(useCallback(() => api.listUsers(), [api]));
  const [creating, setCreating] = useState(false);
  const [removing, setRemoving] = useState<User | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [noticeElement, setNotice] = useNotice();

  const changeRole = async (user: User, role: Role) => {
    try {
      const updated = await api.updateUser(user.id, { role });
      users.update((users) => users.map((u) => (u.id === updated.id ? updated : u)));
      setNotice({ severity: "success", text: t("dashboard.users.roleChanged", { name: updated.name, role: t(`dashboard.roles.${updated.role}`) }) });
    } catch (error) {
      setNotice({ severity: "error", text: t("dashboard.users.roleChangeFailed", { reason: errorText(t, error) }) });
    }
  };

  return (
    <>
      <ResourceListPage
        title={t("dashboard.users.title")}
        subtitle={t("dashboard.users.subtitle")}
        action={
          <Button variant="contained" startIcon={<PersonAddAlt />} onClick={() => setCreating(true)}>
            {t("dashboard.users.new")}
          </Button>
        }
        list={users}
        empty={<EmptyState icon={<PeopleAltOutlined />} title={t("dashboard.users.emptyTitle")} text={t("dashboard.users.emptyText")} />}
      >
        {(data) => (
          <ResourceTable
            sx={PHONE_CELLS}
            rows={data}
            label={t("dashboard.users.title")}
            testId="users-table"
            rowKey={(user) => user.id}
            rowTestId="user-row"
            rowData={(user) => ({ "data-email": user.email })}
            columns={[
              {
                header: t("dashboard.users.columns.user"),
                sx: { width: "50%" },
                cell: (user) => (
                  <>
                    {/* break-word, not anywhere: "anywhere" lets the table squeeze the column to one letter on phones. */}
                    <Typography sx={{ fontWeight: 500, overflowWrap: "break-word" }} data-testid="user-name">
                      {user.name} {user.id === me.id && <Chip label={t("dashboard.users.you")} size="small" sx={{ ml: 0.5 }} />}
                      {user.mustChangePassword && (
                        <Tooltip title={t("dashboard.users.mustChangeHint")}>
                          <Chip label={t("dashboard.users.mustChange")} size="small" variant="outlined" sx={{ ml: 0.5 }} data-testid="must-change-chip" />
                        </Tooltip>
                      )}
                    </Typography>
                    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "break-word", wordBreak: "break-word" }}>
                      {user.email}
                    </Typography>
                  </>
                ),
              },
              {
                header: t("dashboard.users.columns.role"),
                cell: (user) => {
                  const self = user.id === me.id;
                  return (
                    <TextField
                      select
                      size="small"
                      value={user.role}
                      disabled={self}
                      onChange={(event) => void changeRole(user, event.target.value as Role)}
                      slotProps={{ htmlInput: { "aria-label": t("dashboard.users.roleOf", { name: user.name }) } }}
                      title={self ? t("dashboard.users.ownRole") : undefined}
                      sx={{ minWidth: { xs: 0, sm: 150 } }}
                    >
                      <MenuItem value="publisher">{t("dashboard.roles.publisher")}</MenuItem>
                      <MenuItem value="admin">{t("dashboard.roles.admin")}</MenuItem>
                    </TextField>
                  );
                },
              },
              { header: t("dashboard.users.columns.created"), from: "sm", sx: { whiteSpace: "nowrap" }, cell: (user) => formatDateTime(user.createdAt, timeZone) },
            ]}
            actions={{
              cell: (user) => {
                const self = user.id === me.id;
                return (
                  // On a phone the two actions stack, so the name keeps the width it needs.
                  <Stack direction={{ xs: "column", sm: "row" }} sx={{ alignItems: "flex-end", justifyContent: "flex-end" }}>
                    <RowIconAction
                      icon={<LockResetOutlined />}
                      title={self ? t("dashboard.users.cannotResetSelf") : t("dashboard.users.resetPassword")}
                      label={t("dashboard.users.resetPasswordNamed", { name: user.name })}
                      onClick={() => setResetting(user)}
                      disabled={self}
                    />
                    <RowIconAction
                      icon={<DeleteOutline />}
                      title={self ? t("dashboard.users.cannotRemoveSelf") : t("dashboard.users.remove")}
                      label={t("dashboard.users.removeNamed", { name: user.name })}
                      onClick={() => setRemoving(user)}
                      disabled={self}
                    />
                  </Stack>
                );
              },
            }}
          />
        )}
      </ResourceListPage>

      <CreateUserDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(user) => {
          setCreating(false);
          users.update((users) => [...users, user]);
          setNotice({ severity: "success", text: t("dashboard.users.created", { name: user.name }) });
        }}
      />
      <ResetPasswordDialog
        user={resetting}
        onClose={() => setResetting(null)}
        onReset={(reset) => users.update((users) => users.map((u) => (u.id === reset.id ? reset : u)))}
      />
      <ResourceConfirm
        target={removing}
        title={(user) => t("dashboard.users.removeTitle", { name: user.name })}
        text={(user) => t("dashboard.users.removeText", { name: user.name, email: user.email })}
        confirmLabel={t("dashboard.users.remove")}
        destructive
        onClose={() => setRemoving(null)}
        onConfirm={async (removed) => {
          await api.deleteUser(removed.id);
          users.update((users) => users.filter((u) => u.id !== removed.id));
          setNotice({ severity: "success", text: t("dashboard.users.removed", { name: removed.name }) });
        }}
      />
      {noticeElement}
    </>
  );
}
