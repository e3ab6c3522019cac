import type { ReactNode } from "react";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import EditNoteOutlined from "@mui/icons-material/EditNoteOutlined";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import KeyOutlined from "@mui/icons-material/KeyOutlined";
import PeopleAltOutlined from "@mui/icons-material/PeopleAltOutlined";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import GroupsOutlined from "@mui/icons-material/GroupsOutlined";
import type { Role } from "../api/types.js";
import { PAINEL_PATHS } from "../paths.js";

export interface NavItem {
  path: string;
  /** Catalog key of the label. */
  label: string;
  icon: ReactNode;
  adminOnly: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { path: PAINEL_PATHS.root, label: "painel.nav.overview", icon: <DashboardOutlined />, adminOnly: false },
  { path: PAINEL_PATHS.compose, label: "painel.nav.compose", icon: <EditNoteOutlined />, adminOnly: false },
  { path: PAINEL_PATHS.history, label: "painel.nav.history", icon: <HistoryOutlined />, adminOnly: false },
  { path: PAINEL_PATHS.channels, label: "painel.nav.channels", icon: <ForumOutlined />, adminOnly: false },
  { path: PAINEL_PATHS.subscribers, label: "painel.nav.subscribers", icon: <GroupsOutlined />, adminOnly: true },
  { path: PAINEL_PATHS.users, label: "painel.nav.users", icon: <PeopleAltOutlined />, adminOnly: true },
  { path: PAINEL_PATHS.tokens, label: "painel.nav.tokens", icon: <KeyOutlined />, adminOnly: true },
];

export function navItemsFor(role: Role): NavItem[] {
  return NAV_ITEMS.filter((item) => role === "admin" || !item.adminOnly);
}
