import type { DeliveryDefaults } from "../../../shared/api/engagement.js";
import type { EngagementRepository, SiteDeliveryChange } from "../../../store/engagement-repository.js";
import { apiError } from "../../errors.js";
import { validTimeZone } from "../../people/browser-facts.js";

export interface SiteDeliveryDeps {
  readonly engagement: Pick<EngagementRepository, "setSiteDelivery">;
  /** The server's frequency cap, send window and zone: what a site's null settings mean. */
  readonly deliveryDefaults: DeliveryDefaults;
}

/**
 * The frequency cap, send window and time zone of PATCH /sites/:id (shapes checked by the schema):
 * the zone must be one Intl knows, stored as Intl spells it. Validated before anything is stored,
 * so a bad zone leaves the cap and window of the same request unstored too.
 */
export function deliveryChangeOf(body: SiteDeliveryChange): SiteDeliveryChange {
  if (body.timeZone === undefined || body.timeZone === null) return body;
  const zone = validTimeZone(body.timeZone);
  if (zone === null) throw apiError("site_time_zone_invalid", "timeZone");
  return { ...body, timeZone: zone };
}

export function hasDeliveryChange(change: SiteDeliveryChange): boolean {
  return change.frequencyCap !== undefined || change.sendWindow !== undefined || change.timeZone !== undefined;
}
