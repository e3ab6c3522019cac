import { BELL_CATALOG } from "../../../src/client/index.js";
import type { SinoNotice, UnblockHelpKey } from "../../../src/client/index.js";

const { bell, embed } = BELL_CATALOG;

/**
 * The pt-BR texts the React bell shows, read from Sino's catalog (namespaces `bell` and `embed`,
 * the same keys as Sino's own bell and `<sino-bell>`), without i18next: the host app may not use it.
 */
export const BELL_TEXTS = {
  enable: bell.enable,
  disable: bell.disable,
  close: bell.close,
  blockedTitle: bell.blocked.title,
  /** Read with the bell while the browser blocks notifications (its `aria-describedby`). */
  blockedStatus: embed.blockedStatus,
} as const;

/** The soft prompt (`embed.prompt.*`), as `<sino-bell>` shows it. */
export const PROMPT_TEXTS = embed.prompt;

/** The channel picker (`embed.channels.*`), as `<sino-bell>` shows it. */
export const CHANNEL_TEXTS = {
  ...embed.channels,
  limit: (limit: number) => embed.channels.limit.replace(/\{\{\s*limit\s*\}\}/g, String(limit)),
} as const;

const UNBLOCK_HELP: Record<UnblockHelpKey, string> = {
  "bell.blocked.chrome": bell.blocked.chrome,
  "bell.blocked.edge": bell.blocked.edge,
  "bell.blocked.firefox": bell.blocked.firefox,
  "bell.blocked.safari": bell.blocked.safari,
  "bell.blocked.ios": bell.blocked.ios,
  "bell.blocked.other": bell.blocked.other,
};

export function unblockHelpText(key: UnblockHelpKey): string {
  return UNBLOCK_HELP[key];
}

/** The notice's text after a failed click; `blocked` has a title and the browser's own steps. */
export function noticeText(notice: Exclude<SinoNotice, "blocked">): string {
  switch (notice) {
    case "enable-failed":
      return bell.failed.enable;
    case "disable-failed":
      return bell.failed.disableBrowser;
    case "disable-server-failed":
      return bell.failed.disable;
    case "enable-timeout":
      return bell.failed.timeout;
  }
}
