type T = (key: string, values?: Record<string, unknown>) => string;

/**
 * A send's validity (RFC 8030 §5.2 TTL) in words, in the largest unit that states it exactly:
 * 86400 → "1 dia", 5400 → "90 minutos"; 0 is "now or never".
 */
export function ttlText(t: T, seconds: number): string {
  if (seconds === 0) return t("notifications.ttl.zero");
  const [unit, size] = seconds % 86_400 === 0 ? ["days", 86_400] : seconds % 3600 === 0 ? ["hours", 3600] : seconds % 60 === 0 ? ["minutes", 60] : ["seconds", 1];
  const count = seconds / size;
  return t("notifications.ttl.remaining", { duration: t(`notifications.ttl.${unit}`, { count }) });
}
