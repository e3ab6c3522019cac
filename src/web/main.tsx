import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { Provider } from "react-redux";
import { BrowserRouter } from "react-router";
import { SinoProvider } from "@sino/react";
import { App } from "./App.js";
import { createAppStore, pushTokenSlice } from "./app-store.js";
import { ApiContext } from "./hooks/useApi.js";
import { createI18n } from "./i18n/create-i18n.js";
import { createApiClient, createSinoClient } from "../client/index.js";
import { ColorModeProvider } from "./color-mode/ColorModeProvider.js";
import { OrganisationProvider } from "./organisation/OrganisationProvider.js";

// All wiring happens here, once: everything below receives what it needs.
const i18n = createI18n();
const api = createApiClient();
// Sino's own pages run the bell client every site runs (the embed, @sino/react): one state
// machine, so the blocked state and the rest look the same everywhere. Its worker is /sw.js.
const sino = createSinoClient({ sinoUrl: window.location.origin, serviceWorkerUrl: "/sw.js" });
const store = createAppStore({ sino });
void sino.start();

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
document.title = i18n.t("app.name");

createRoot(container).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <Provider store={store}>
        {/* The token reaches the store through setToken (seed-spec §3, §7), by the package's bridge. */}
        <SinoProvider client={sino} dispatch={store.dispatch} setToken={pushTokenSlice.actions.setToken}>
          <ApiContext.Provider value={api}>
            <OrganisationProvider defaultTitle={i18n.t("app.name")}>
              <ColorModeProvider>
                <BrowserRouter>
                  <App />
                </BrowserRouter>
              </ColorModeProvider>
            </OrganisationProvider>
          </ApiContext.Provider>
        </SinoProvider>
      </Provider>
    </I18nextProvider>
  </StrictMode>,
);
