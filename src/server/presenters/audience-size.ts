import type { AudienceSize } from "../../shared/api/notifications.js";
import type { ChannelRecord } from "../../store/channels-repository.js";
import type { SiteRecord } from "../../store/sites-repository.js";

/** GET /audience's answer; the built-in site shows SINO_PUBLIC_URL's origin, as on the Sites page. */
export function presentAudienceSize(recipients: number, channels: readonly ChannelRecord[], sites: readonly SiteRecord[], publicOrigin: string, gated: { limited: number; asleep: number } = { limited: 0, asleep: 0 }): AudienceSize {
  return {
    limited: gated.limited,
    asleep: gated.asleep,
    recipients,
    channels: channels.map(({ slug, name }) => ({ slug, name })),
    sites: sites.map((site) => ({ id: String(site.id), origin: site.origin ?? publicOrigin })),
  };
}
