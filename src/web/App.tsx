import { lazy, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, Route, Routes } from "react-router";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import { ColorModeMenu } from "./color-mode/ColorModeMenu.js";
import { PushBell } from "./components/PushBell.js";
import { PublicFooter } from "./components/PublicFooter.js";
import { ChannelAddress } from "./pages/ChannelAddress.js";
import { HomePage } from "./pages/HomePage.js";
import { NotFoundPage } from "./pages/NotFoundPage.js";
import { OrganisationMark } from "./organisation/OrganisationMark.js";
import { useOrganisation } from "./organisation/organisation-context.js";

// The dashboard is for operators only: a separate chunk, so visitors of the public pages never load it.
const DashboardApp = lazy(() => import("./dashboard/DashboardApp.js").then((module) => ({ default: module.DashboardApp })));
// Preferences is one visit in many: its own chunk, fetched when a visitor opens it.
const PreferencesPage = lazy(() => import("./pages/PreferencesPage.js").then((module) => ({ default: module.PreferencesPage })));
const PrivacyPage = lazy(() => import("./pages/PrivacyPage.js").then((module) => ({ default: module.PrivacyPage })));

export function App() {
  return (
    <Routes>
      <Route
        path="/painel/*"
        element={
          <Suspense fallback={null}>
            <DashboardApp />
          </Suspense>
        }
      />
      <Route path="*" element={<PublicSite />} />
    </Routes>
  );
}

/** The visitors' pages, under the bar with the bell. */
function PublicSite() {
  const { t } = useTranslation();
  const { organisation } = useOrganisation();
  return (
    <Box sx={{ minHeight: "100vh", bgcolor: "background.default" }}>
      <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: "divider" }}>
        <Toolbar>
          <Box
            component={RouterLink}
            to="/"
            sx={{ display: "flex", alignItems: "center", gap: 1, color: "primary.main", textDecoration: "none", flexGrow: 1 }}
          >
            <OrganisationMark />
            <Typography variant="h6" component="span" sx={{ fontWeight: 700 }} data-testid="organisation-name">
              {organisation?.name ?? t("app.name")}
            </Typography>
            <Typography variant="body2" component="span" color="text.secondary" sx={{ display: { xs: "none", sm: "inline" }, ml: 1 }}>
              {t("app.tagline")}
            </Typography>
          </Box>
          <ColorModeMenu />
          <PushBell />
        </Toolbar>
      </AppBar>
      <Box component="main">
        <Routes>
          <Route path="/" element={<HomePage />} />
          {/* The notices' own address: notifications and the README link to it. */}
          <Route path="/avisos" element={<HomePage />} />
          <Route path="/p/:channel" element={<ChannelAddress />} />
          <Route
            path="/preferencias"
            element={
              <Suspense fallback={null}>
                <PreferencesPage />
              </Suspense>
            }
          />
          <Route
            path="/privacidade"
            element={
              <Suspense fallback={null}>
                <PrivacyPage />
              </Suspense>
            }
          />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Box>
      <PublicFooter />
    </Box>
  );
}
