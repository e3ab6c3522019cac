/**
 * sino.js: what a site includes with
 * `<script src="https://SINO/embed/sino.js" data-site="KEY" async></script>`. One classic script
 * (IIFE), no framework: it defines `<sino-bell>`, adds a floating bell when the page has none,
 * offers the optional soft prompt and exposes `window.Sino`.
 */
import { createSinoClient, unblockHelpKey } from "../client/index.js";
import { BELL_TAG, defineSinoBell } from "./bell-element.js";
import type { BellRegistry } from "./bell-element.js";
import { readEmbedConfig } from "./embed-config.js";
import { createSinoApi, READY_EVENT } from "./js-api.js";
import { scheduleSoftPrompt } from "./soft-prompt.js";
import { createTranslate } from "./texts.js";

function main(win: Window, script: HTMLScriptElement | null): void {
  // Included twice (a theme and a plugin both add the snippet): the first one runs the page.
  if (win.Sino) return;
  const doc = win.document;
  const config = readEmbedConfig(script, win.location.href);
  const client = createSinoClient({
    sinoUrl: config.sinoUrl,
    site: config.site,
    serviceWorkerUrl: config.serviceWorkerUrl,
    serviceWorkerScope: config.serviceWorkerScope,
    window: win,
  });
  const registry: BellRegistry = { bells: new Set(), lastUsed: null };
  defineSinoBell(win, { client, t: createTranslate(), helpKey: unblockHelpKey(win.navigator.userAgent, win.navigator.maxTouchPoints), registry });
  const api = createSinoApi(client, doc);
  win.Sino = api;
  // A refusal is already in the console (identify logs it): nothing else to do on load.
  if (config.user) api.identify(config.user.id, config.user.signature).catch(() => undefined);

  whenParsed(doc, () => {
    if (config.position !== null && !doc.querySelector(BELL_TAG)) {
      const floating = doc.createElement(BELL_TAG);
      floating.setAttribute("floating", "");
      floating.setAttribute("position", config.position);
      doc.body.append(floating);
    }
    if (config.softPrompt) scheduleSoftPrompt({ win, client, config: config.softPrompt, registry });
  });
  doc.dispatchEvent(new CustomEvent(READY_EVENT, { detail: api }));
}

/** An async script may run before the rest of the page is parsed (and its `<sino-bell>` exists). */
function whenParsed(doc: Document, run: () => void): void {
  if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", run, { once: true });
  else run();
}

// currentScript is only set while this script first runs, so it is read here, at the top.
main(window, document.currentScript instanceof HTMLScriptElement ? document.currentScript : null);
