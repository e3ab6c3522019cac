import { useState } from "react";
import { Route, Routes } from "react-router";
import { ChannelsPage } from "./channels/ChannelsPage.js";
import { ComposePage } from "./compose/ComposePage.js";
import { DashboardLayout } from "./layout/DashboardLayout.js";
import { OverviewPage } from "./pages/OverviewPage.js";
import { DashboardNotFoundPage } from "./pages/DashboardNotFoundPage.js";
import { SetupPage } from "./pages/SetupPage.js";
import { HistoryPage } from "./notifications/HistoryPage.js";
import { NotificationPage } from "./notifications/NotificationPage.js";
import { SignInPage } from "./pages/SignInPage.js";
import { SubscribersPage } from "./subscribers/SubscribersPage.js";
import { createDashboardServices, DashboardServicesContext } from "./services.js";
import type { DashboardServices } from "./services.js";
import { RequireAdmin } from "./session/RequireAdmin.js";
import { RequireSession } from "./session/RequireSession.js";
import { SessionProvider } from "./session/SessionProvider.js";
import { TokensPage } from "./tokens/TokensPage.js";
import { UsersPage } from "./users/UsersPage.js";

/**
 * The operators' dashboard (the Painel), mounted at /painel/*. Its services are built here once (no module
 * state); tests and other hosts can pass their own.
 */
export function DashboardApp({ services }: { services?: DashboardServices }) {
  const [built] = useState<DashboardServices>(() => services ?? createDashboardServices({ siteOrigin: window.location.origin }));
  return (
    <DashboardServicesContext.Provider value={built}>
      <SessionProvider>
        <Routes>
          <Route path="configuracao" element={<SetupPage />} />
          <Route path="entrar" element={<SignInPage />} />
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
            <Route
              path="assinantes"
              element={
                <RequireAdmin>
                  <SubscribersPage />
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
            <Route path="*" element={<DashboardNotFoundPage />} />
          </Route>
        </Routes>
      </SessionProvider>
    </DashboardServicesContext.Provider>
  );
}
