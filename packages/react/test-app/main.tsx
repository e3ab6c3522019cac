import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { configureStore } from "@reduxjs/toolkit";
import type { Middleware } from "@reduxjs/toolkit";
import { Provider } from "react-redux";
import { SinoProvider, sinoReducer } from "@sino/react";
import type { SinoBellProps } from "@sino/react";
import { App } from "./App.js";

/**
 * A host app as a team would write it: its own Redux store with the Sino slice mounted, the
 * provider pointing at Sino on another origin. The browser test passes Sino's address and the
 * site key in the query string (`?sino=http://localhost:1234&site=KEY`), since they change per run.
 */
const params = new URLSearchParams(window.location.search);
const sinoUrl = params.get("sino");
if (!sinoUrl) throw new Error("The test app needs ?sino=<Sino's address>");
const site = params.get("site");

/**
 * The bell's soft prompt, as a site would configure it: `?prompt=1` for the defaults, plus
 * `promptVisits`, `promptDelay` and `promptBackoffDays` (the snippet's data attributes).
 */
function softPromptFrom(query: URLSearchParams): SinoBellProps["softPrompt"] {
  if (query.get("prompt") !== "1") return false;
  const number = (name: string) => (query.has(name) ? Number(query.get(name)) : undefined);
  return { visits: number("promptVisits"), delaySeconds: number("promptDelay"), backoffDays: number("promptBackoffDays") };
}

/** Every action the store saw, for the browser test to check that the token came through `setToken`. */
const seen: unknown[] = [];
(window as Window & { sinoTestActions?: unknown[] }).sinoTestActions = seen;

const record: Middleware = () => (next) => (action) => {
  seen.push(action);
  return next(action);
};
const store = configureStore({ reducer: { sino: sinoReducer }, middleware: (getDefault) => getDefault().concat(record) });

/** Every click the provider's `onNotificationClick` got, for the browser test. */
const providerClicks: unknown[] = [];
(window as Window & { sinoTestProviderClicks?: unknown[] }).sinoTestProviderClicks = providerClicks;

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <SinoProvider sinoUrl={sinoUrl} site={site} dispatch={store.dispatch} onNotificationClick={(click) => providerClicks.push(click)}>
        <App softPrompt={softPromptFrom(params)} />
      </SinoProvider>
    </Provider>
  </StrictMode>,
);
