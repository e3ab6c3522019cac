import { softPromptConfig } from "../client/index.js";
import type { UserClaim, SoftPromptConfig } from "../client/index.js";

/** Where a floating bell sits when the page has no `<sino-bell>` element. */
export type BellPosition = "bottom-right" | "bottom-left" | "top-right" | "top-left";

export interface EmbedConfig {
  /** Sino's base URL (no trailing slash), e.g. `https://sino.exemplo.com.br`. */
  sinoUrl: string;
  /** The site key (`data-site`); null on Sino's own origin. */
  site: string | null;
  /** null: no floating bell (`data-position="none"`). */
  position: BellPosition | null;
  serviceWorkerUrl: string;
  serviceWorkerScope: string;
  /** null: no soft prompt (the default: the bell alone asks). */
  softPrompt: SoftPromptConfig | null;
  /** `data-user` and `data-user-signature`: who a server-rendered page says is signed in; identified on load. */
  user: UserClaim | null;
}

const POSITIONS: readonly BellPosition[] = ["bottom-right", "bottom-left", "top-right", "top-left"];

/**
 * The snippet's settings, read from the script tag's data attributes:
 *
 * `<script src="https://SINO/embed/sino.js" data-site="KEY" data-position="bottom-left"
 *   data-service-worker="/sino-sw.js" data-soft-prompt data-prompt-visits="2"
 *   data-prompt-delay="10" data-prompt-backoff-days="14" data-user="ID" data-user-signature="HMAC"
 *   async></script>`
 *
 * Sino's URL is where the script came from (`/embed/sino.js` stripped), so the same snippet works
 * behind any host name or path prefix; `data-sino-url` overrides it.
 */
export function readEmbedConfig(script: { readonly src: string; getAttribute(name: string): string | null } | null, pageUrl: string): EmbedConfig {
  const attr = (name: string): string | null => script?.getAttribute(`data-${name}`) ?? null;
  const explicit = attr("sino-url");
  const base = explicit ?? (script?.src ? new URL("..", new URL(script.src, pageUrl)).href : new URL("/", pageUrl).href);
  const positionAttr = attr("position");
  const position = positionAttr === "none" ? null : (POSITIONS.find((p) => p === positionAttr) ?? "bottom-right");
  const promptAttr = attr("soft-prompt");
  const softPrompt =
    promptAttr === null || promptAttr === "false" || promptAttr === "off"
      ? null
      : softPromptConfig({
          visits: numberAttr(attr("prompt-visits")),
          delaySeconds: numberAttr(attr("prompt-delay")),
          backoffDays: numberAttr(attr("prompt-backoff-days")),
        });
  const site = attr("site");
  // The id is taken as written (the client refuses one with edge spaces): trimming it here would
  // tie the browser to another person than the host meant.
  const userId = attr("user");
  const signature = attr("user-signature");
  return {
    sinoUrl: base.replace(/\/+$/, ""),
    site: site === null || site.trim() === "" ? null : site.trim(),
    position,
    serviceWorkerUrl: attr("service-worker") ?? "/sino-sw.js",
    serviceWorkerScope: attr("scope") ?? "/",
    softPrompt,
    user: userId === null || userId === "" ? null : signature ? { id: userId, signature } : { id: userId },
  };
}

/** A number attribute; undefined when absent or blank (softPromptConfig then takes the default). */
function numberAttr(value: string | null): number | undefined {
  return value === null || value.trim() === "" ? undefined : Number(value);
}
