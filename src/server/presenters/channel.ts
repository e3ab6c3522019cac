import type { Channel } from "../../shared/api/channels.js";
import type { ChannelRecord } from "../../store/channels-repository.js";

export function presentChannel(channel: ChannelRecord): Channel {
  return {
    id: String(channel.id),
    slug: channel.slug,
    name: channel.name,
    description: channel.description,
    isDefault: channel.isDefault,
    archived: channel.archived,
    subscribers: channel.subscribers,
    createdAt: new Date(channel.createdAt).toISOString(),
  };
}
