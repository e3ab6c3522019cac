import { z } from "zod";
import { NOTIFICATION_CATEGORIES, NOTIFICATION_STATUSES } from "./notifications.js";
import { RECIPIENT_OUTCOMES, recipientSiteSchema } from "./recipients.js";
import { tagMapSchema } from "./tags.js";
import { text } from "./text.js";
import { USER_ID_MAX_LENGTH, userIdSchema } from "./user-id.js";

/**
 * People: the host app's users, known by an opaque user id (never Sino's operators, who are
 * "users" in /api/v1/users). Admin reads: who they are, their devices, what reached them.
 */
export const PEOPLE_PAGE_SIZE = 50;
export const PEOPLE_MAX_PAGE_SIZE = 200;

/** A user id as a path parameter: the one rule of src/shared/api/user-id.ts. */
export const userIdParamsSchema = z.object({ userId: userIdSchema });

/** GET /people?query=&page=&pageSize= — `query` matches the start of the user id, ignoring case and accents. */
export const peopleQuerySchema = z.object({
  query: text().max(USER_ID_MAX_LENGTH).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(PEOPLE_MAX_PAGE_SIZE).default(PEOPLE_PAGE_SIZE),
});
export type PeopleQuery = z.input<typeof peopleQuerySchema>;

export const personSummarySchema = z.object({
  userId: z.string(),
  /** How many subscriptions (browsers, devices) are tied to them now. */
  subscriptions: z.number().int(),
  lastSeenAt: z.string(),
  identifiedAt: z.string().nullable(),
});
export type PersonSummary = z.infer<typeof personSummarySchema>;

export const peopleResponseSchema = z.object({
  people: z.array(personSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type PeopleResponse = z.infer<typeof peopleResponseSchema>;

/** One of a person's subscriptions: never the endpoint or keys. */
export const personDeviceSchema = z.object({
  id: z.string(),
  site: recipientSiteSchema,
  /** e.g. "Chrome"; null when the User-Agent was not recognised or not sent. */
  browser: z.string().nullable(),
  os: z.string().nullable(),
  channels: z.array(z.string()),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  identifiedAt: z.string().nullable(),
  /** The IANA time zone its bell reported; null when unknown. */
  timeZone: z.string().nullable(),
  /** Visitor tags its page set (never trusted: the person's are `person.tags`). */
  visitorTags: tagMapSchema,
});
export type PersonDevice = z.infer<typeof personDeviceSchema>;

export const personResponseSchema = z.object({
  person: z.object({
    userId: z.string(),
    /** Trusted tags, set by the host's server. */
    tags: tagMapSchema,
    subscriptions: z.array(personDeviceSchema),
  }),
});
export type PersonResponse = z.infer<typeof personResponseSchema>;

/** GET /people/:userId/notifications?page=&pageSize= */
export const personDeliveriesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(PEOPLE_MAX_PAGE_SIZE).default(PEOPLE_PAGE_SIZE),
});
export type PersonDeliveriesQuery = z.input<typeof personDeliveriesQuerySchema>;

export const personDeliverySchema = z.object({
  notification: z.object({
    id: z.string(),
    title: z.string(),
    category: z.enum(NOTIFICATION_CATEGORIES),
    createdAt: z.string(),
    status: z.enum(NOTIFICATION_STATUSES),
  }),
  subscriptionId: z.string(),
  site: recipientSiteSchema,
  outcome: z.enum(RECIPIENT_OUTCOMES),
  reason: z.string().nullable(),
  attempts: z.number().int(),
  updatedAt: z.string(),
  shownAt: z.string().nullable(),
  clickedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type PersonDelivery = z.infer<typeof personDeliverySchema>;

export const personDeliveriesResponseSchema = z.object({
  deliveries: z.array(personDeliverySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type PersonDeliveriesResponse = z.infer<typeof personDeliveriesResponseSchema>;
