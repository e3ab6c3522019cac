import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { Provider } from "react-redux";
import { BrowserRouter } from "react-router";
import CssBaseline from "@mui/material/CssBaseline";
import { ThemeProvider } from "@mui/material/styles";
import { App } from "./App.js";
import { ApiContext } from "./hooks/useApi.js";
import { createI18n } from "./i18n/create-i18n.js";
import { createApiClient } from "../client/messaging/api-client.js";
import { createPushMessaging } from "../client/messaging/push-messaging.js";
import { readMessagingEnvironment } from "../client/messaging/read-environment.js";
import { createAppStore } from "./state/store.js";
import { startPush } from "./state/push-thunks.js";
import { theme } from "./theme.js";

// All wiring happens here, once: everything below receives what it needs.
const i18n = createI18n();
const api = createApiClient();
const messaging = createPushMessaging({
  api,
  environment: readMessagingEnvironment(window),
  serviceWorker: "serviceWorker" in navigator ? navigator.serviceWorker : undefined,
  notification: "Notification" in window ? Notification : undefined,
  logger: console,
});
const store = createAppStore({ messaging, api });
void store.dispatch(startPush());

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
document.title = i18n.t("app.name");

createRoot(container).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <Provider store={store}>
        <ApiContext.Provider value={api}>
          <ThemeProvider theme={theme}>
            <CssBaseline />
            <BrowserRouter>
              <App />
            </BrowserRouter>
          </ThemeProvider>
        </ApiContext.Provider>
      </Provider>
    </I18nextProvider>
  </StrictMode>,
);
