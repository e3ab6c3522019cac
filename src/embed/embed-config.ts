/** Where a floating bell sits when the page has no `<sino-bell>` element. */
export type BellPosition = "bottom-right" | "bottom-left" | "top-right" | "top-left";

export interface SoftPromptConfig {
  /** Show the prompt from the visitor's Nth visit (a visit = a browser session on the site). */
  visits: number;
  /** …and only after this many seconds on the page. */
  delaySeconds: number;
  /** "Agora não" hides it for this many days. */
  backoffDays: number;
}

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
}

const POSITIONS: readonly BellPosition[] = ["bottom-right", "bottom-left", "top-right", "top-left"];

export const DEFAULT_SOFT_PROMPT: SoftPromptConfig = { visits: 1, delaySeconds: 0, backoffDays: 7 };

/**
 * The snippet's settings, read from the script tag's data attributes:
 *
 * `<script src="https://SINO/embed/sino.js" data-site="KEY" data-position="bottom-left"
 *   data-service-worker="/sino-sw.js" data-soft-prompt data-prompt-visits="2"
 *   data-prompt-delay="10" data-prompt-backoff-days="14" async></script>`
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
      : {
          visits: positiveNumber(attr("prompt-visits"), DEFAULT_SOFT_PROMPT.visits, 1),
          delaySeconds: positiveNumber(attr("prompt-delay"), DEFAULT_SOFT_PROMPT.delaySeconds, 0),
          backoffDays: positiveNumber(attr("prompt-backoff-days"), DEFAULT_SOFT_PROMPT.backoffDays, 0),
        };
  const site = attr("site");
  return {
    sinoUrl: base.replace(/\/+$/, ""),
    site: site === null || site.trim() === "" ? null : site.trim(),
    position,
    serviceWorkerUrl: attr("service-worker") ?? "/sino-sw.js",
    serviceWorkerScope: attr("scope") ?? "/",
    softPrompt,
  };
}

/** A number attribute, or the default when absent or not a finite number ≥ min. */
function positiveNumber(value: string | null, fallback: number, min: number): number {
  if (value === null || value.trim() === "") return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= min ? n : fallback;
}
