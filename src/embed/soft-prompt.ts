import type { SinoClient } from "../client/index.js";
import type { BellRegistry } from "./bell-element.js";
import type { SoftPromptConfig } from "./embed-config.js";
import { readPromptMemory, recordDismissal, recordVisit, shouldOfferPrompt } from "./prompt-policy.js";
import type { MaybeStorage } from "./prompt-policy.js";

export interface SoftPromptDeps {
  win: Window;
  client: SinoClient;
  config: SoftPromptConfig;
  registry: BellRegistry;
}

/**
 * Counts this visit and, once the client has started, offers the soft prompt when the policy
 * allows (see prompt-policy.ts) after the configured delay. "Ativar notificações" runs the bell's
 * own subscribe inside the click, so the browser's dialog follows; "Agora não" (or a dialog the
 * visitor dismissed without deciding) backs off for the configured days.
 */
export function scheduleSoftPrompt({ win, client, config, registry }: SoftPromptDeps): void {
  const local = storage(win, "localStorage");
  recordVisit(local, storage(win, "sessionStorage"));
  const permission = (): NotificationPermission | "unsupported" => ("Notification" in win ? (win as Window & typeof globalThis).Notification.permission : "unsupported");
  // The memory is read afresh each time: another tab of the site may have said "Agora não" meanwhile.
  const allowed = (): boolean =>
    shouldOfferPrompt(config, readPromptMemory(local), Date.now(), { status: client.state, permission: permission() });

  void client.start().then(() => {
    if (!allowed()) return;
    win.setTimeout(() => {
      // Re-checked: the visitor may have used the bell meanwhile.
      if (!allowed()) return;
      const host = registry.lastUsed ?? registry.bells.values().next().value;
      if (!host || host.softPromptOpen) return;
      host.openSoftPrompt({
        accept() {
          registry.lastUsed = host;
          void client.subscribe().then((snapshot) => {
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
}

/** localStorage/sessionStorage, or null where reading them throws (disabled storage). */
function storage(win: Window, name: "localStorage" | "sessionStorage"): MaybeStorage {
  try {
    return win[name];
  } catch {
    return null;
  }
}
