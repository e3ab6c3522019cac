import { Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, Outlet, useLocation, useNavigate } from "react-router";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Snackbar from "@mui/material/Snackbar";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import LockResetOutlined from "@mui/icons-material/LockResetOutlined";
import LogoutOutlined from "@mui/icons-material/LogoutOutlined";
import MenuIcon from "@mui/icons-material/Menu";
import NotificationsIcon from "@mui/icons-material/Notifications";
import OpenInNew from "@mui/icons-material/OpenInNew";
import PublicOutlined from "@mui/icons-material/PublicOutlined";
import DescriptionOutlined from "@mui/icons-material/DescriptionOutlined";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { ColorModeMenu } from "../../color-mode/ColorModeMenu.js";
import { PushBell } from "../../components/PushBell.js";
import { errorText } from "../api/error-text.js";
import { FullPageProgress } from "../components/FullPageProgress.js";
import { VisuallyHidden } from "../components/VisuallyHidden.js";
import { DASHBOARD_PATHS } from "../paths.js";
import { useCurrentUser, useSession } from "../session/session-context.js";
import { navItemsFor } from "./nav-items.js";

const DRAWER_WIDTH = 256;

/**
 * The signed-in dashboard: a side navigation that stays open from tablets up and becomes a menu
 * behind the top bar's button on phones. The bell sits in the top bar so an operator can turn on
 * this browser's notifications and use "Enviar para mim".
 */
export function DashboardLayout() {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);

  return (
    <Box sx={{ display: "flex", minHeight: "100vh", bgcolor: "background.default" }}>
      <AppBar
        position="fixed"
        color="inherit"
        elevation={0}
        // Above the permanent drawer from tablets up; below the phone menu, which is a modal.
        sx={(theme) => ({ borderBottom: 1, borderColor: "divider", [theme.breakpoints.up("md")]: { zIndex: theme.zIndex.drawer + 1 } })}
      >
        <Toolbar>
          <IconButton
            edge="start"
            aria-label={t("dashboard.nav.openMenu")}
            aria-controls="dashboard-menu"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(true)}
            sx={{ mr: 1, display: { md: "none" } }}
          >
            <MenuIcon />
          </IconButton>
          <Box
            component={RouterLink}
            to={DASHBOARD_PATHS.root}
            sx={{ display: "flex", alignItems: "center", gap: 1, color: "primary.main", textDecoration: "none", flexGrow: 1 }}
          >
            <NotificationsIcon aria-hidden />
            <Typography variant="h6" component="span" sx={{ fontWeight: 700 }}>
              {t("app.name")}
            </Typography>
            <Typography variant="body2" component="span" color="text.secondary" sx={{ ml: 0.5 }}>
              {t("dashboard.title")}
            </Typography>
          </Box>
          <ColorModeMenu />
          <PushBell />
        </Toolbar>
      </AppBar>

      <Box component="nav" aria-label={t("dashboard.nav.label")} sx={{ width: { md: DRAWER_WIDTH }, flexShrink: { md: 0 } }}>
        <Drawer
          id="dashboard-menu"
          variant="temporary"
          open={menuOpen}
          onClose={() => setMenuOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ display: { xs: "block", md: "none" }, "& .MuiDrawer-paper": { width: DRAWER_WIDTH } }}
        >
          <NavContent onNavigate={() => setMenuOpen(false)} />
        </Drawer>
        <Drawer
          variant="permanent"
          open
          sx={{ display: { xs: "none", md: "block" }, "& .MuiDrawer-paper": { width: DRAWER_WIDTH, boxSizing: "border-box" } }}
        >
          <Toolbar />
          <NavContent onNavigate={() => undefined} />
        </Drawer>
      </Box>

      <Box component="main" sx={{ flexGrow: 1, minWidth: 0, px: { xs: 2, sm: 3, lg: 5 }, pb: 6 }}>
        <Toolbar />
        <Box sx={{ maxWidth: 1120, mx: "auto", pt: { xs: 3, sm: 4 } }}>
          {/* Each page is a lazy chunk (DashboardApp): while one loads, its progress takes the
              content area and the bar and navigation stay as they are. */}
          <Suspense fallback={<FullPageProgress />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </Box>
  );
}

function NavContent({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { signOut } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const [signOutError, setSignOutError] = useState<string | null>(null);

  const isCurrent = (path: string) =>
    path === DASHBOARD_PATHS.root ? location.pathname === path || location.pathname === `${path}/` : location.pathname.startsWith(path);

  const leave = async () => {
    onNavigate();
    try {
      await signOut();
      await navigate(DASHBOARD_PATHS.signIn, { replace: true });
    } catch (error) {
      setSignOutError(t("dashboard.nav.signOutFailed", { reason: errorText(t, error) }));
    }
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <Box sx={{ px: 2.5, py: 2 }}>
        <Typography sx={{ fontWeight: 600 }} noWrap data-testid="current-user">
          {user.name}
        </Typography>
        <Typography variant="body2" color="text.secondary" noWrap>
          {t(`dashboard.roles.${user.role}`)}
        </Typography>
      </Box>
      <Divider />
      <List sx={{ px: 1, flexGrow: 1 }}>
        {navItemsFor(user.role).map((item) => {
          const current = isCurrent(item.path);
          // Inside a ListItem: a <ul> may only hold <li> (axe "list"); the button alone renders a link.
          return (
            <ListItem key={item.path} disablePadding>
              <ListItemButton
                component={RouterLink}
                to={item.path}
                selected={current}
                aria-current={current ? "page" : undefined}
                onClick={onNavigate}
                sx={{ borderRadius: 2, mb: 0.5 }}
              >
                <ListItemIcon sx={{ minWidth: 40, color: current ? "primary.main" : undefined }}>{item.icon}</ListItemIcon>
                <ListItemText primary={t(item.label)} />
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
      <Divider />
      {/* What an operator opens beside the Painel: what visitors see, and the API integrators read. */}
      <List sx={{ px: 1 }} aria-label={t("dashboard.nav.links")}>
        {[
          { href: "/avisos", label: t("dashboard.nav.publicPage"), icon: <PublicOutlined /> },
          { href: `${API_ROUTES.docs}/`, label: t("dashboard.nav.apiDocs"), icon: <DescriptionOutlined /> },
        ].map((link) => (
          <ListItem key={link.href} disablePadding>
            <ListItemButton component="a" href={link.href} target="_blank" rel="noopener" onClick={onNavigate} sx={{ borderRadius: 2 }}>
              <ListItemIcon sx={{ minWidth: 40 }}>{link.icon}</ListItemIcon>
              <ListItemText primary={link.label} />
              <OpenInNew fontSize="small" color="action" aria-hidden />
              <VisuallyHidden>{` ${t("dashboard.nav.opensInNewTab")}`}</VisuallyHidden>
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      <Divider />
      <List sx={{ px: 1 }}>
        <ListItem disablePadding>
          <ListItemButton component={RouterLink} to={DASHBOARD_PATHS.password} state={{ from: location.pathname + location.search }} onClick={onNavigate} sx={{ borderRadius: 2 }}>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <LockResetOutlined />
            </ListItemIcon>
            <ListItemText primary={t("dashboard.nav.changePassword")} />
          </ListItemButton>
        </ListItem>
        <ListItem disablePadding>
          <ListItemButton onClick={() => void leave()} sx={{ borderRadius: 2 }}>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <LogoutOutlined />
            </ListItemIcon>
            <ListItemText primary={t("dashboard.nav.signOut")} />
          </ListItemButton>
        </ListItem>
      </List>
      <Snackbar open={signOutError !== null} message={signOutError} autoHideDuration={6000} onClose={() => setSignOutError(null)} />
    </Box>
  );
}
