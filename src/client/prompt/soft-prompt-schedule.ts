import type { SinoClient } from "../sino-client.js";
import { readPromptMemory, recordDismissal, recordVisit, shouldOfferPrompt } from "./prompt-policy.js";
import type { MaybeStorage, SoftPromptConfig } from "./prompt-policy.js";

/** The visitor's two answers to the soft prompt; whichever UI shows it calls one. */
export interface SoftPromptChoice {
  /** "Ativar notificações": call it inside the click, so the browser's own dialog may open. */
  accept(): void;
  /** "Agora não" (or Escape): backs off for the configured days. */
  later(): void;
}

export interface SoftPromptScheduleDeps {
  win: Window;
  client: SinoClient;
  config: SoftPromptConfig;
  /** Shows the prompt (the embed's `<dialog>`, `<SinoBell />`'s panel); the UI's part only. */
  offer(choice: SoftPromptChoice): void;
}

/**
 * Counts this visit and, once the client has started, offers the soft prompt when the policy
 * allows (see prompt-policy.ts) after the configured delay. Accepting runs the client's subscribe,
 * so the browser's dialog follows; "Agora não", or the browser's dialog dismissed without a
 * decision, backs off for the configured days. Returns the function that cancels a pending offer
 * (a React bell unmounted before the delay ends).
 */
export function scheduleSoftPrompt({ win, client, config, offer }: SoftPromptScheduleDeps): () => void {
  const local = storage(win, "localStorage");
  recordVisit(local, storage(win, "sessionStorage"));
  const permission = (): NotificationPermission | "unsupported" =>
    "Notification" in win ? (win as Window & typeof globalThis).Notification.permission : "unsupported";
  // The memory is read afresh each time: another tab of the site may have said "Agora não" meanwhile.
  const allowed = (): boolean =>
    shouldOfferPrompt(config, readPromptMemory(local), Date.now(), { status: client.state, permission: permission() });

  let cancelled = false;
  let timer: ReturnType<Window["setTimeout"]> | undefined;
  void client.start().then(() => {
    if (cancelled || !allowed()) return;
    timer = win.setTimeout(() => {
      // Re-checked: the visitor may have used the bell meanwhile.
      if (!allowed()) return;
      offer({
        accept() {
          void client.subscribe("soft_prompt").then((snapshot) => {
            // The browser's dialog was dismissed without a decision: do not ask again at once.
            if (snapshot.status === "off") recordDismissal(local, Date.now());
          });
        },
        later() {
          recordDismissal(local, Date.now());
        },
      });
    }, config.delaySeconds * 1000);
  });
  return () => {
    cancelled = true;
    if (timer !== undefined) win.clearTimeout(timer);
  };
}

/** localStorage/sessionStorage, or null where reading them throws (disabled storage). */
function storage(win: Window, name: "localStorage" | "sessionStorage"): MaybeStorage {
  try {
    return win[name];
  } catch {
    return null;
  }
}
