import { scheduleSoftPrompt as schedule } from "../client/index.js";
import type { SinoClient, SoftPromptConfig } from "../client/index.js";
import type { BellRegistry } from "./bell-element.js";

export interface SoftPromptDeps {
  win: Window;
  client: SinoClient;
  config: SoftPromptConfig;
  registry: BellRegistry;
}

/**
 * The soft prompt for the script-tag bell: the rules and timing are the client's
 * (`scheduleSoftPrompt`); the prompt opens in the bell last used (or the first), unless one is
 * already open there.
 */
export function scheduleSoftPrompt({ win, client, config, registry }: SoftPromptDeps): void {
  schedule({
    win,
    client,
    config,
    offer(choice) {
      const host = registry.lastUsed ?? registry.bells.values().next().value;
      if (!host || host.softPromptOpen) return;
      host.openSoftPrompt({
        accept() {
          registry.lastUsed = host;
          choice.accept();
        },
        later: choice.later,
      });
    },
  });
}
