import type { Translator } from "../server/i18n.js";
import type { NotificationResponse } from "../shared/api/notifications.js";
import { API_ROUTES } from "../shared/api/routes.js";
import { DEFAULT_TIME_ZONE } from "../shared/time/zoned-time.js";
import { callApi, type ApiIo, type ApiTarget } from "./api-call.js";
import { formatScheduleTime } from "./schedule-time.js";

const TEXTS = { noToken: "cli:send.noToken", refused: "local-time:cli.refused" } as const;

/**
 * `sino status <id>`: a notification's status and counts, and, while pushes wait for the subscribers'
 * local window, how many and when the next go (in SINO_TIME_ZONE, as `sino send --schedule` reads).
 */
export async function sendStatusCommand(id: string, target: ApiTarget, io: ApiIo, translator: Translator): Promise<0 | 1 | 2> {
  const { t } = translator;
  if (!/^\d{1,15}$/.test(id)) {
    io.stderr(`${t("local-time:cli.badId", { id })}\n`);
    return 2;
  }
  const called = await callApi<NotificationResponse>(target, io, translator, "GET", `${API_ROUTES.notifications}/${id}`, undefined, TEXTS);
  if (!called.ok) return called.code;
  const n = called.body.notification;
  const c = n.counts;
  const number = (value: number) => new Intl.NumberFormat("pt-BR").format(value);
  io.stdout(
    `${t("local-time:cli.status", {
      id: n.id,
      status: t(`cli:send.status.${n.status}`),
      queued: number(c.queued),
      accepted: number(c.accepted),
      retrying: number(c.retrying),
      failed: number(c.failed),
      removed: number(c.removed),
      waiting: number(c.waiting),
      expired: number(c.expired),
    })}\n`,
  );
  if (c.waiting > 0 && n.waitingUntil !== null) {
    const zone = io.env.SINO_TIME_ZONE ?? DEFAULT_TIME_ZONE;
    io.stdout(`${t("local-time:cli.waiting", { count: c.waiting, total: number(c.waiting), when: formatScheduleTime(Date.parse(n.waitingUntil), zone), zone })}\n`);
  }
  if (c.expired > 0) io.stdout(`${t("local-time:cli.expired", { count: c.expired, total: number(c.expired) })}\n`);
  return 0;
}
