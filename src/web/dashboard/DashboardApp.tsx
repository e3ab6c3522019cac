// First import: the Painel validates with zod, and this must run before any module below does (see the file).
import "../zod-jitless.js";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import type { PublicConfig } from "../../shared/api/config.js";
import { API_ROUTES } from "../../shared/api/routes.js";
import { createJsonRequest } from "../../client/http/json-request.js";
import { dashboardApiErrorFrom } from "./api/dashboard-api.js";
import { errorText } from "./api/error-text.js";
import { FullPageProgress } from "./components/FullPageProgress.js";
import { useResource } from "./hooks/useResource.js";
import { Route, Routes } from "react-router";
import { ChannelsPage } from "./channels/ChannelsPage.js";
import { SitesPage } from "./sites/SitesPage.js";
import { ComposePage } from "./compose/ComposePage.js";
import { DashboardLayout } from "./layout/DashboardLayout.js";
import { OverviewPage } from "./pages/OverviewPage.js";
import { DashboardNotFoundPage } from "./pages/DashboardNotFoundPage.js";
import { SetupPage } from "./pages/SetupPage.js";
import { HistoryPage } from "./notifications/HistoryPage.js";
import { NotificationPage } from "./notifications/NotificationPage.js";
import { SignInPage } from "./pages/SignInPage.js";
import { ChangePasswordPage } from "./pages/ChangePasswordPage.js";
import { SubscribersPage } from "./subscribers/SubscribersPage.js";
import { PeoplePage } from "./people/PeoplePage.js";
import { PersonPage } from "./people/PersonPage.js";
import { createDashboardServices, DashboardServicesContext } from "./services.js";
import type { DashboardServices } from "./services.js";
import { RequireAdmin } from "./session/RequireAdmin.js";
import { RequireSession } from "./session/RequireSession.js";
import { SessionProvider } from "./session/SessionProvider.js";
import { SegmentPage } from "./segments/SegmentPage.js";
import { SegmentsPage } from "./segments/SegmentsPage.js";
import { TemplatesPage } from "./templates/TemplatesPage.js";
import { TokensPage } from "./tokens/TokensPage.js";
import { UsersPage } from "./users/UsersPage.js";
import { WebhooksPage } from "./webhooks/WebhooksPage.js";
import { OrganisationPage } from "./organisation/OrganisationPage.js";

/**
 * The operators' dashboard (the Painel), mounted at /painel/*. Its services are built here once (no module
 * state); tests and other hosts can pass their own.
 */
export function DashboardApp({ services }: { services?: DashboardServices }) {
  const { t } = useTranslation();
  // The server's SINO_TIME_ZONE, from the public config: every date shown and every schedule
  // entered is in that zone, never the browser's nor a built-in one.
  const { resource, reload } = useResource(
    useCallback(async () => {
      if (services) return services;
      const config = await createJsonRequest({ toError: dashboardApiErrorFrom }).json<PublicConfig>("GET", API_ROUTES.config);
      return createDashboardServices({ siteOrigin: window.location.origin, timeZone: config.timeZone });
    }, [services]),
  );
  if (resource.status === "loading") return <FullPageProgress />;
  if (resource.status === "error") {
    return (
      <Alert
        severity="error"
        role="alert"
        sx={{ m: 2 }}
        action={
          <Button color="inherit" size="small" onClick={reload}>
            {t("dashboard.common.retry")}
          </Button>
        }
      >
        {errorText(t, resource.error)}
      </Alert>
    );
  }
  const built = resource.data;
  return (
    <DashboardServicesContext.Provider value={built}>
      <SessionProvider>
        <Routes>
          <Route path="configuracao" element={<SetupPage />} />
          <Route path="entrar" element={<SignInPage />} />
          <Route
            path="senha"
            element={
              <RequireSession>
                <ChangePasswordPage />
              </RequireSession>
            }
          />
          <Route
            element={
              <RequireSession>
                <DashboardLayout />
              </RequireSession>
            }
          >
            <Route index element={<OverviewPage />} />
            <Route path="nova" element={<ComposePage />} />
            <Route path="historico" element={<HistoryPage />} />
            <Route path="envios/:id" element={<NotificationPage />} />
            <Route path="canais" element={<ChannelsPage />} />
            <Route path="sites" element={<SitesPage />} />
            <Route path="modelos" element={<TemplatesPage />} />
            <Route
              path="assinantes"
              element={
                <RequireAdmin>
                  <SubscribersPage />
                </RequireAdmin>
              }
            />
            <Route
              path="pessoas"
              element={
                <RequireAdmin>
                  <PeoplePage />
                </RequireAdmin>
              }
            />
            <Route
              path="pessoas/:userId"
              element={
                <RequireAdmin>
                  <PersonPage />
                </RequireAdmin>
              }
            />
            <Route
              path="usuarios"
              element={
                <RequireAdmin>
                  <UsersPage />
                </RequireAdmin>
              }
            />
            <Route
              path="tokens"
              element={
                <RequireAdmin>
                  <TokensPage />
                </RequireAdmin>
              }
            />
            <Route
              path="webhooks"
              element={
                <RequireAdmin>
                  <WebhooksPage />
                </RequireAdmin>
              }
            />
            <Route
              path="segmentos"
              element={
                <RequireAdmin>
                  <SegmentsPage />
                </RequireAdmin>
              }
            />
            <Route
              path="segmentos/:id"
              element={
                <RequireAdmin>
                  <SegmentPage />
                </RequireAdmin>
              }
            />
            <Route
              path="organizacao"
              element={
                <RequireAdmin>
                  <OrganisationPage />
                </RequireAdmin>
              }
            />
            <Route path="*" element={<DashboardNotFoundPage />} />
          </Route>
        </Routes>
      </SessionProvider>
    </DashboardServicesContext.Provider>
  );
}
