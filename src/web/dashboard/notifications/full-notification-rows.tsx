import type { ReactNode } from "react";
import type { TFunction } from "i18next";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";

/** The full notification's fields (issue 19) as a send answers them: absent or null when not set. */
export interface FullNotificationFields {
  readonly collapseKey?: string | null;
  readonly actions?: readonly { readonly label: string; readonly url: string }[] | null;
  readonly renotify?: boolean | null;
  readonly requireInteraction?: boolean | null;
  readonly silent?: boolean | null;
  readonly badge?: string | null;
  readonly appBadge?: number | null;
  readonly data?: unknown;
}

/** A row of Envio's "Conteúdo": label, value, and the test id of its value. */
export type DetailRow = [string, ReactNode, string?];

/**
 * Envio's rows for the full notification's fields, only those the send set: buttons (label and
 * link), collapse key, the options switched on, badge, app badge and the custom data.
 */
export function fullNotificationRows(t: TFunction, send: FullNotificationFields, picture: (url: string) => ReactNode): DetailRow[] {
  const rows: DetailRow[] = [];
  const actions = send.actions ?? [];
  if (actions.length > 0) {
    rows.push([
      t("notifications.full.actions"),
      <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
        {actions.map((action, index) => (
          <li key={index}>
            <Box component="span" sx={{ fontWeight: 500, mr: 1 }}>
              {action.label}
            </Box>
            <Link href={action.url} target="_blank" rel="noopener noreferrer" sx={{ overflowWrap: "anywhere" }}>
              {action.url}
            </Link>
          </li>
        ))}
      </Box>,
      "actions",
    ]);
  }
  if (send.collapseKey) rows.push([t("notifications.full.collapseKey"), send.collapseKey, "collapseKey"]);
  const options = (["requireInteraction", "silent", ...(send.collapseKey ? (["renotify"] as const) : [])] as const).filter((option) => send[option] === true);
  if (options.length > 0) {
    const list = new Intl.ListFormat("pt-BR", { type: "conjunction" }).format(options.map((option) => t(`notifications.full.${option}`)));
    rows.push([t("notifications.full.options"), list, "options"]);
  }
  if (send.badge) rows.push([t("notifications.full.badge"), picture(send.badge), "badge"]);
  if (send.appBadge !== undefined && send.appBadge !== null) rows.push([t("notifications.full.appBadge"), String(send.appBadge), "appBadge"]);
  if (send.data !== undefined && send.data !== null) {
    rows.push([
      t("notifications.full.data"),
      <Box component="pre" sx={{ m: 0, p: 1, borderRadius: 1, bgcolor: "action.hover", fontSize: "0.8125rem", whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
        {JSON.stringify(send.data, null, 2)}
      </Box>,
      "data",
    ]);
  }
  return rows;
}
