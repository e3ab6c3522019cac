import { NOTIFICATION_LIMITS } from "../../shared/api/notifications.js";
import type { Audience, NewNotification } from "../../store/notifications-repository.js";
import { DeliveryError } from "../delivery-error.js";
import { prepareNotification, type NotificationInput } from "../notification-input.js";

/** What a feed item becomes in a push. */
export interface FeedItemContent {
  readonly title: string;
  readonly summary: string | null;
  readonly link: string | null;
  readonly image: string | null;
}

export type FeedAudience = { readonly channelId: number; readonly slug: string } | null;

/**
 * The notification of a feed item: its title, its summary as the body, its link, its image — each cut to
 * the notification's limits (with an ellipsis). When the encrypted push would not fit one record,
 * the image goes first, then the body shrinks; the title and link always stay. Throws the notification's
 * `DeliveryError` when even that does not fit (the item is then recorded as refused).
 */
export function feedItemNotification(item: FeedItemContent, audience: FeedAudience, publicUrl: string | undefined, icon: string | null): NewNotification {
  const base: NotificationInput = {
    title: cut(item.title, NOTIFICATION_LIMITS.title),
    ...(item.link === null || item.link.length > NOTIFICATION_LIMITS.link ? {} : { url: item.link }),
    ...(icon === null ? {} : { icon }),
    audience: audienceOf(audience),
  };
  const image = item.image !== null && item.image.startsWith("https://") && item.image.length <= NOTIFICATION_LIMITS.link ? item.image : undefined;
  const body = item.summary === null ? undefined : cut(item.summary, NOTIFICATION_LIMITS.body);
  const attempts: NotificationInput[] = [
    { ...base, ...(body === undefined ? {} : { body }), ...(image === undefined ? {} : { image }) },
    ...(image === undefined ? [] : [{ ...base, ...(body === undefined ? {} : { body }) }]),
    ...(body === undefined ? [] : [{ ...base, body: cut(body, 120) }, base]),
  ];
  let last: unknown;
  for (const input of attempts) {
    try {
      return prepareNotification(input, publicUrl);
    } catch (error) {
      if (!(error instanceof DeliveryError) || error.code !== "payload_too_large") throw error;
      last = error;
    }
  }
  throw last;
}

function audienceOf(audience: FeedAudience): Audience {
  return audience === null ? { kind: "everyone" } : { kind: "channels", channels: [audience.channelId], slugs: [audience.slug] };
}

/** `text` at most `max` characters, cut at a word when one is near, with an ellipsis. */
export function cut(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const room = trimmed.slice(0, max - 1);
  const space = room.lastIndexOf(" ");
  return `${(space > max * 0.6 ? room.slice(0, space) : room).trimEnd()}…`;
}
