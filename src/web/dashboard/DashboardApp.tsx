// First import: the Painel validates with zod, and this must run before any module below does (see the file).
import "../zod-jitless.js";
import { Suspense, useCallback } from "react";
import { useTranslation } from "react-i18next";
import type { PublicConfig } from "../../shared/api/config.js";
import { API_ROUTES } from "../../shared/api/routes.js";
import { createDashboardRequest } from "./api/dashboard-request.js";
import { errorText } from "./api/error-text.js";
import { FullPageProgress } from "./components/FullPageProgress.js";
import { RetryAlert } from "./components/LoadError.js";
import { useResource } from "./hooks/useResource.js";
import { Route, Routes } from "react-router";
import { DashboardLayout } from "./layout/DashboardLayout.js";
import { lazyPage } from "./lazy-page.js";
import { DashboardNotFoundPage } from "./pages/DashboardNotFoundPage.js";
import { createDashboardServices, DashboardServicesContext } from "./services.js";
import type { DashboardServices } from "./services.js";
import { RequireAdmin } from "./session/RequireAdmin.js";
import { RequireSession } from "./session/RequireSession.js";
import { SessionProvider } from "./session/SessionProvider.js";

// Each page is a chunk of its own: Visão geral, the page an operator opens first, loads with the
// shell (layout, navigation, session) and its own code only, and a library one page uses (the
// charts of Visão geral and Segmento) comes with that page. The layout shows a progress in its
// content area while a page loads; the navigation stays where it is.
const SetupPage = lazyPage(() => import("./pages/SetupPage.js"), "SetupPage");
const SignInPage = lazyPage(() => import("./pages/SignInPage.js"), "SignInPage");
const ChangePasswordPage = lazyPage(() => import("./pages/ChangePasswordPage.js"), "ChangePasswordPage");
const OverviewPage = lazyPage(() => import("./pages/OverviewPage.js"), "OverviewPage");
const ComposePage = lazyPage(() => import("./compose/ComposePage.js"), "ComposePage");
const HistoryPage = lazyPage(() => import("./notifications/HistoryPage.js"), "HistoryPage");
const NotificationPage = lazyPage(() => import("./notifications/NotificationPage.js"), "NotificationPage");
const ChannelsPage = lazyPage(() => import("./channels/ChannelsPage.js"), "ChannelsPage");
const SitesPage = lazyPage(() => import("./sites/SitesPage.js"), "SitesPage");
const TemplatesPage = lazyPage(() => import("./templates/TemplatesPage.js"), "TemplatesPage");
const SubscribersPage = lazyPage(() => import("./subscribers/SubscribersPage.js"), "SubscribersPage");
const PeoplePage = lazyPage(() => import("./people/PeoplePage.js"), "PeoplePage");
const PersonPage = lazyPage(() => import("./people/PersonPage.js"), "PersonPage");
const UsersPage = lazyPage(() => import("./users/UsersPage.js"), "UsersPage");
const TokensPage = lazyPage(() => import("./tokens/TokensPage.js"), "TokensPage");
const WebhooksPage = lazyPage(() => import("./webhooks/WebhooksPage.js"), "WebhooksPage");
const FeedsPage = lazyPage(() => import("./feeds/FeedsPage.js"), "FeedsPage");
const SegmentsPage = lazyPage(() => import("./segments/SegmentsPage.js"), "SegmentsPage");
const SegmentPage = lazyPage(() => import("./segments/SegmentPage.js"), "SegmentPage");
const OrganisationPage = lazyPage(() => import("./organisation/OrganisationPage.js"), "OrganisationPage");
const AuditPage = lazyPage(() => import("./audit/AuditPage.js"), "AuditPage");

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
      const config = await createDashboardRequest().json<PublicConfig>("GET", API_ROUTES.config);
      return createDashboardServices({ siteOrigin: window.location.origin, timeZone: config.timeZone });
    }, [services]),
  );
  if (resource.status === "loading") return <FullPageProgress />;
  if (resource.status === "error") {
    return <RetryAlert onRetry={reload}>{errorText(t, resource.error)}</RetryAlert>;
  }
  const built = resource.data;
  return (
    <DashboardServicesContext.Provider value={built}>
      <SessionProvider>
        {/* The pages outside the layout (set-up, sign-in, password) fill the page while they load. */}
        <Suspense fallback={<FullPageProgress />}>
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
                path="feeds"
                element={
                  <RequireAdmin>
                    <FeedsPage />
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
              <Route
                path="auditoria"
                element={
                  <RequireAdmin>
                    <AuditPage />
                  </RequireAdmin>
                }
              />
              <Route path="*" element={<DashboardNotFoundPage />} />
            </Route>
          </Routes>
        </Suspense>
      </SessionProvider>
    </DashboardServicesContext.Provider>
  );
}
