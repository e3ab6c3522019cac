import type { Translator } from "../server/i18n.js";
import type { AuditResponse } from "../shared/api/audit.js";
import { API_ROUTES } from "../shared/api/routes.js";
import { callApi, type ApiIo, type ApiTarget } from "./api-call.js";

export interface AuditOptions extends ApiTarget {
  readonly action?: string;
  readonly actor?: string;
  readonly from?: string;
  readonly to?: string;
  /** How many entries, newest first (1–200; default 50). */
  readonly limit?: string;
}

/**
 * `sino audit`: the newest entries of the audit log (an admin token), one tab-separated line each —
 * time (UTC), who, action code, target, status, address. Same filters as GET /audit.
 */
export async function auditCommand(options: AuditOptions, io: ApiIo, translator: Translator): Promise<0 | 1 | 2> {
  const { t } = translator;
  const limit = options.limit === undefined ? 50 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
    io.stderr(`${t("audit:cli.badLimit")}\n`);
    return 2;
  }
  const params = new URLSearchParams({ pageSize: String(limit) });
  for (const key of ["action", "actor", "from", "to"] as const) {
    const value = options[key];
    if (value !== undefined) params.set(key, value);
  }
  const called = await callApi<AuditResponse>(options, io, translator, "GET", `${API_ROUTES.audit}?${params.toString()}`, undefined, {
    noToken: "audit:cli.noToken",
    refused: "audit:cli.refused",
  });
  if (!called.ok) return called.code;
  if (called.body.entries.length === 0) io.stdout(`${t("audit:cli.none")}\n`);
  for (const e of called.body.entries) {
    const who = `${e.actor.kind}${e.actor.id === null ? "" : `:${e.actor.id}`}${e.actor.name === null ? "" : ` (${e.actor.name})`}`;
    io.stdout(`${e.at}\t${who}\t${e.action}\t${e.targetId ?? "-"}\t${e.status}\t${e.ip ?? "-"}\n`);
  }
  if (called.body.total > called.body.entries.length) io.stderr(`${t("audit:cli.more", { shown: called.body.entries.length, total: called.body.total })}\n`);
  return 0;
}
