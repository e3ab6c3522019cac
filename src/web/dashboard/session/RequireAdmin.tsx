import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import LockOutlined from "@mui/icons-material/LockOutlined";
import { EmptyState } from "../components/EmptyState.js";
import { useCurrentUser } from "./session-context.js";

/** Admin-only pages: a publisher who types the URL sees why, not a broken list (the API says 403 anyway). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  if (user.role !== "admin") {
    return <EmptyState icon={<LockOutlined />} title={t("dashboard.session.adminOnlyTitle")} text={t("dashboard.session.adminOnlyText")} />;
  }
  return children;
}
