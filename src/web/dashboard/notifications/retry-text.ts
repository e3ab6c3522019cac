import type { RetryCause } from "../../../shared/api/notifications.js";

type T = (key: string, values?: Record<string, unknown>) => string;

/**
 * "em 35 segundos", "em 2 minutos", "em 1 hora": how long until `iso`, in pt-BR words from Intl,
 * rounded to the unit that reads best (59 min 59 s is "em 1 hora", not "em 60 minutos").
 */
export function formatUntil(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((Date.parse(iso) - now) / 1000));
  const format = new Intl.RelativeTimeFormat("pt-BR", { numeric: "always" });
  if (seconds < 60) return format.format(seconds, "second");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return format.format(minutes, "minute");
  const hours = Math.round(seconds / 3600);
  if (hours < 24) return format.format(hours, "hour");
  return format.format(Math.round(seconds / 86_400), "day");
}

/** A retry cause in words: "Serviço temporariamente indisponível" (an unknown reason as the server named it). */
export function retryReasonText(t: T, cause: Pick<RetryCause, "reason">): string {
  return t(`notifications.retries.reasons.${cause.reason}`, { defaultValue: cause.reason });
}

/** "HTTP 503", or "sem resposta" when the push service never answered. */
export function retryStatusText(t: T, cause: Pick<RetryCause, "status">): string {
  return cause.status === null ? t("notifications.retries.noAnswer") : t("notifications.retries.status", { status: cause.status });
}
