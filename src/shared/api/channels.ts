import { z } from "zod";
import { text } from "./text.js";

/**
 * Channels (*canais*): topics an operator defines and a subscriber picks. The slug names a channel
 * in URLs (`/p/<slug>`, `?channel=<slug>`) and in the subscriber's choice, so it never changes.
 */
export const CHANNEL_SLUG_MAX_LENGTH = 40;
export const CHANNEL_NAME_MAX_LENGTH = 60;
export const CHANNEL_DESCRIPTION_MAX_LENGTH = 200;
/** `todos` means "everyone" in the quick publish path (`/p/todos`), so no channel may take it. */
export const RESERVED_CHANNEL_SLUG = "todos";
/** Default of SINO_MAX_CHANNELS_PER_SUBSCRIPTION (ntfy limits topics per subscription the same way). */
export const DEFAULT_MAX_CHANNELS_PER_SUBSCRIPTION = 20;

export const channelSlugSchema = text({ error: "channel_slug_invalid" })
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, { error: "channel_slug_invalid" })
  .refine((slug) => slug !== RESERVED_CHANNEL_SLUG, { error: "channel_slug_reserved" });

export const channelNameSchema = text({ error: "name_required" })
  .trim()
  .min(1, { error: "name_required" })
  .max(CHANNEL_NAME_MAX_LENGTH, { error: "name_too_long" });

export const channelDescriptionSchema = text({ error: "channel_description_too_long" })
  .trim()
  .max(CHANNEL_DESCRIPTION_MAX_LENGTH, { error: "channel_description_too_long" })
  .nullable();

export const channelSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** New subscriptions join the default channels. */
  isDefault: z.boolean(),
  /** Hidden from the public and no longer targetable; subscribers' choices are kept. */
  archived: z.boolean(),
  /** Subscriptions that chose this channel. */
  subscribers: z.number().int(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
});
export type Channel = z.infer<typeof channelSchema>;

/** GET /channels (signed in). */
export const channelsResponseSchema = z.object({ channels: z.array(channelSchema) });
export type ChannelsResponse = z.infer<typeof channelsResponseSchema>;

/** POST /channels, PATCH /channels/:id. */
export const channelResponseSchema = z.object({ channel: channelSchema });
export type ChannelResponse = z.infer<typeof channelResponseSchema>;

/** POST /channels (admin) → 201 `{ channel }`; 409 `channel_slug_taken`. */
export const createChannelRequestSchema = z.strictObject({
  slug: channelSlugSchema,
  name: channelNameSchema,
  description: channelDescriptionSchema.optional(),
  isDefault: z.boolean().optional(),
});
export type CreateChannelRequest = z.input<typeof createChannelRequestSchema>;

/** PATCH /channels/:id (admin) → `{ channel }`. The slug is immutable. */
export const updateChannelRequestSchema = z.strictObject({
  name: channelNameSchema.optional(),
  description: channelDescriptionSchema.optional(),
  isDefault: z.boolean().optional(),
  archived: z.boolean().optional(),
});
export type UpdateChannelRequest = z.input<typeof updateChannelRequestSchema>;

/** What any visitor may know of a channel (GET /config, notices). */
export const publicChannelSchema = z.object({
  slug: z.string(),
  name: z.string(),
  description: z.string().nullable(),
});
export type PublicChannel = z.infer<typeof publicChannelSchema>;
