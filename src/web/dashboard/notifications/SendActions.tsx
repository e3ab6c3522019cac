import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import ContentCopy from "@mui/icons-material/ContentCopy";
import EditOutlined from "@mui/icons-material/EditOutlined";
import type { Notification } from "../../../shared/api/notifications.js";
import { composePath } from "../paths.js";

/**
 * Envio's actions: "Editar" while it is scheduled (compose, at its time), "Duplicar" always
 * (compose filled with it, to go now), and whatever else the page puts beside them (cancel).
 */
export function SendActions({ notification, children }: { notification: Notification; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap", rowGap: 1, flexShrink: 0 }}>
      {notification.status === "scheduled" && (
        <Button variant="contained" startIcon={<EditOutlined />} component={RouterLink} to={composePath({ edit: notification.id })}>
          {t("notifications.send.edit")}
        </Button>
      )}
      <Button variant="outlined" startIcon={<ContentCopy />} component={RouterLink} to={composePath({ duplicate: notification.id })}>
        {t("notifications.send.duplicate")}
      </Button>
      {children}
    </Stack>
  );
}
