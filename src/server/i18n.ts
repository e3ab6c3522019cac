import i18next from "i18next";
import { LOCALE, NAMESPACES, ptBR } from "../shared/i18n/catalog.js";

/** Looks up a pt-BR message: `t("errors:not_found")`, `t("cli:started", { url })`. */
export interface Translator {
  t(key: string, values?: Record<string, unknown>): string;
}

/**
 * One i18next instance per call (no shared global instance), initialised synchronously from the
 * bundled catalog: the server never waits on or fetches translations.
 */
export function createTranslator(): Translator {
  const instance = i18next.createInstance();
  void instance.init({
    lng: LOCALE,
    fallbackLng: false,
    resources: { [LOCALE]: ptBR },
    ns: NAMESPACES,
    defaultNS: "errors",
    initAsync: false,
    // Messages go into JSON and terminals, never into HTML, so no HTML escaping.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return {
    t: (key, values) => instance.t(key, values ?? {}),
  };
}
