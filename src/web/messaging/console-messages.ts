/**
 * The console messages of the app Sino replaces, verbatim: operators and tests grep for them. They are
 * developer diagnostics, not user-facing text, so they do not live in the pt-BR catalog.
 */
export const CONSOLE_MESSAGES = {
  tokenError: "An error occurred while retrieving token",
  noToken: "No registration token available. Request permission to generate one.",
  notInitialised: "Não inicializando o Firebase no webview",
} as const;
