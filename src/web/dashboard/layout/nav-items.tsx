import type { ReactNode } from "react";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import EditNoteOutlined from "@mui/icons-material/EditNoteOutlined";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import KeyOutlined from "@mui/icons-material/KeyOutlined";
import PeopleAltOutlined from "@mui/icons-material/PeopleAltOutlined";
import ForumOutlined from "@mui/icons-material/ForumOutlined";
import GroupsOutlined from "@mui/icons-material/GroupsOutlined";
import LanguageOutlined from "@mui/icons-material/LanguageOutlined";
import BadgeOutlined from "@mui/icons-material/BadgeOutlined";
import WebhookOutlined from "@mui/icons-material/WebhookOutlined";
import FilterAltOutlined from "@mui/icons-material/FilterAltOutlined";
import BookmarksOutlined from "@mui/icons-material/BookmarksOutlined";
import ApartmentOutlined from "@mui/icons-material/ApartmentOutlined";
import PolicyOutlined from "@mui/icons-material/PolicyOutlined";
import RssFeedOutlined from "@mui/icons-material/RssFeedOutlined";
import type { Role } from "../api/types.js";
import { DASHBOARD_PATHS } from "../paths.js";

export interface NavItem {
  path: string;
  /** Catalog key of the label. */
  label: string;
  icon: ReactNode;
  adminOnly: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { path: DASHBOARD_PATHS.root, label: "dashboard.nav.overview", icon: <DashboardOutlined />, adminOnly: false },
  { path: DASHBOARD_PATHS.compose, label: "dashboard.nav.compose", icon: <EditNoteOutlined />, adminOnly: false },
  { path: DASHBOARD_PATHS.history, label: "dashboard.nav.history", icon: <HistoryOutlined />, adminOnly: false },
  { path: DASHBOARD_PATHS.templates, label: "templates.nav", icon: <BookmarksOutlined />, adminOnly: false },
  { path: DASHBOARD_PATHS.channels, label: "dashboard.nav.channels", icon: <ForumOutlined />, adminOnly: false },
  { path: DASHBOARD_PATHS.sites, label: "dashboard.nav.sites", icon: <LanguageOutlined />, adminOnly: false },
  { path: DASHBOARD_PATHS.subscribers, label: "dashboard.nav.subscribers", icon: <GroupsOutlined />, adminOnly: true },
  { path: DASHBOARD_PATHS.people, label: "dashboard.nav.people", icon: <BadgeOutlined />, adminOnly: true },
  { path: DASHBOARD_PATHS.segments, label: "segments.nav", icon: <FilterAltOutlined />, adminOnly: true },
  { path: DASHBOARD_PATHS.users, label: "dashboard.nav.users", icon: <PeopleAltOutlined />, adminOnly: true },
  { path: DASHBOARD_PATHS.tokens, label: "dashboard.nav.tokens", icon: <KeyOutlined />, adminOnly: true },
  { path: DASHBOARD_PATHS.webhooks, label: "dashboard.nav.webhooks", icon: <WebhookOutlined />, adminOnly: true },
  { path: DASHBOARD_PATHS.feeds, label: "feeds.nav", icon: <RssFeedOutlined />, adminOnly: true },
  { path: DASHBOARD_PATHS.organisation, label: "dashboard.nav.organisation", icon: <ApartmentOutlined />, adminOnly: true },
  { path: DASHBOARD_PATHS.audit, label: "audit.page.nav", icon: <PolicyOutlined />, adminOnly: true },
];

export function navItemsFor(role: Role): NavItem[] {
  return NAV_ITEMS.filter((item) => role === "admin" || !item.adminOnly);
}
