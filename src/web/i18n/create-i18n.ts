import i18next from "i18next";
import type { i18n } from "i18next";
import { LOCALE, ptBR } from "../../shared/i18n/catalog.js";

/**
 * An i18next instance over the shared pt-BR catalog, ready on return (resources are inline, so
 * `initAsync: false` makes init synchronous). The whole catalog is one resource tree, so keys read
 * `bell.enable` in the page and in the service worker alike. Built per caller: no global instance.
 */
export function createI18n(): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: LOCALE,
    fallbackLng: LOCALE,
    supportedLngs: [LOCALE],
    resources: { [LOCALE]: { translation: ptBR } },
    initAsync: false,
    // React escapes on render; the service worker hands text to the notification API, not HTML.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
