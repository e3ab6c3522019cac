import type { AudienceSize, NotificationCategory } from "../../../shared/api/notifications.js";
import { formatNumber } from "../format.js";

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * gates: what the compose confirmation adds about the delivery rules: how many of the audience are
 * at their frequency cap now and how many are sleeping (from GET /audience), or that the rules do
 * not apply (an exempt or transactional send). Empty when there is nothing to say.
 */
export function deliveryRulesText(t: Translate, size: AudienceSize | null, rules: { exempt: boolean; reengagement: boolean; category: NotificationCategory }): string {
  if (rules.exempt) return t("delivery-rules.compose.confirmExempt");
  if (rules.category === "transactional") return t("delivery-rules.compose.confirmTransactional");
  if (size === null || size.recipients < 0) return "";
  const parts: string[] = [];
  if (size.limited > 0) parts.push(t("delivery-rules.compose.confirmLimited", { count: size.limited, formatted: formatNumber(size.limited) }));
  if (size.asleep > 0) parts.push(t(rules.reengagement ? "delivery-rules.compose.confirmAsleepReengagement" : "delivery-rules.compose.confirmAsleep", { count: size.asleep, formatted: formatNumber(size.asleep) }));
  return parts.join(" ");
}
