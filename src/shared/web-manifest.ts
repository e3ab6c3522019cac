import { LOCALE, ptBR } from "./i18n/catalog.js";

export interface WebManifestIcon {
  readonly src: string;
  readonly sizes: string;
  readonly type: string;
  readonly purpose: string;
}

/**
 * The web app manifest, from the catalog so the installed app's name is the app's name. On
 * iOS/iPadOS a site added to the home screen with `display: standalone` is the only place where
 * Web Push works (16.4+), so this file is what lets iPhone visitors get the bell at all. The build
 * writes it (vite.config.ts) and the server answers it with the organisation's identity over it.
 */
export function baseWebManifest() {
  return {
    name: ptBR.app.name,
    short_name: ptBR.app.name,
    description: ptBR.app.tagline,
    lang: LOCALE,
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#f6f7fb",
    theme_color: "#1d4e89",
    icons: [{ src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" }] as WebManifestIcon[],
  };
}
