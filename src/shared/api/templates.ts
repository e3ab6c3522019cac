import { z } from "zod";
import { createNotificationRequestSchema } from "./notifications.js";
import { siteIdSchema } from "./sites.js";
import { clearable, text } from "./text.js";

/**
 * Saved templates (*modelos*): a send's content kept under a name — title, body, link, icon,
 * image, urgency, validity (TTL), collapse key and, optionally, its audience — to start a send
 * from (the Painel's compose "Usar modelo", `sino send --template NOME`). Every field follows the
 * rule of the same field of POST /notifications.
 */
export const TEMPLATE_LIMITS = {
  name: 80,
  /** Templates on one server (`too_many_templates`). */
  count: 500,
} as const;

const fields = createNotificationRequestSchema.shape;

export const templateNameSchema = text({ error: "template_name_invalid" })
  .trim()
  .min(1, { error: "template_name_invalid" })
  .max(TEMPLATE_LIMITS.name, { error: "template_name_invalid" });

const sites = z.array(siteIdSchema).max(100);

/**
 * The audience a template proposes, as a send names it: everyone, channels (slugs), or a saved
 * segment (id), each narrowed to sites or not. People and "this browser" are one send's business,
 * never a template's.
 */
const templateAudience = <S extends z.ZodType>(segment: S) =>
  z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("all"), sites: sites.optional() }),
    z.strictObject({ type: z.literal("channels"), channels: z.array(text()).min(1, { error: "channel_not_found" }).max(100), sites: sites.optional() }),
    z.strictObject({ type: z.literal("segment"), segment, sites: sites.optional() }),
  ]);

/** As asked: a saved segment's id as text or number. */
export const templateAudienceSchema = templateAudience(
  z.union([z.string().regex(/^\d{1,15}$/), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)], { error: "segment_not_found" }),
);
/** As answered: ids as text. */
const presentedTemplateAudienceSchema = templateAudience(z.string());
export type TemplateAudience = z.infer<typeof presentedTemplateAudienceSchema>;

/** An optional text field: absent or `null` (or empty) means none. */
const optional = clearable;

/** POST /templates → 201 `{ template }`; 409 `template_name_taken` / `too_many_templates`. */
export const createTemplateRequestSchema = z.strictObject({
  name: templateNameSchema,
  title: fields.title,
  body: optional(fields.body.unwrap()),
  url: optional(fields.url.unwrap()),
  icon: optional(fields.icon.unwrap()),
  image: optional(fields.image.unwrap()),
  urgency: fields.urgency,
  ttl: fields.ttl,
  collapseKey: optional(fields.collapseKey.unwrap()),
  /** The full notification's fields, as POST /notifications takes them; `null` clears one. */
  actions: fields.actions.unwrap().nullable().optional(),
  renotify: fields.renotify,
  requireInteraction: fields.requireInteraction,
  silent: fields.silent,
  badge: optional(fields.badge.unwrap()),
  appBadge: fields.appBadge.unwrap().nullable().optional(),
  data: fields.data,
  /** Absent or null: the audience is chosen when sending. */
  audience: templateAudienceSchema.nullable().optional(),
});
export type CreateTemplateRequest = z.input<typeof createTemplateRequestSchema>;

/** PATCH /templates/:id: what is given changes (`null` clears an optional field). */
export const updateTemplateRequestSchema = z.strictObject({
  name: templateNameSchema.optional(),
  title: fields.title.optional(),
  body: optional(fields.body.unwrap()),
  url: optional(fields.url.unwrap()),
  icon: optional(fields.icon.unwrap()),
  image: optional(fields.image.unwrap()),
  urgency: fields.urgency.unwrap().optional(),
  ttl: fields.ttl.unwrap().optional(),
  collapseKey: optional(fields.collapseKey.unwrap()),
  /** The full notification's fields, as POST /notifications takes them; `null` clears one. */
  actions: fields.actions.unwrap().nullable().optional(),
  renotify: fields.renotify,
  requireInteraction: fields.requireInteraction,
  silent: fields.silent,
  badge: optional(fields.badge.unwrap()),
  appBadge: fields.appBadge.unwrap().nullable().optional(),
  data: fields.data,
  audience: templateAudienceSchema.nullable().optional(),
});
export type UpdateTemplateRequest = z.input<typeof updateTemplateRequestSchema>;

export const templateSchema = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  body: z.string().nullable(),
  url: z.string().nullable(),
  icon: z.string().nullable(),
  image: z.string().nullable(),
  urgency: fields.urgency.unwrap(),
  ttl: z.number().int(),
  collapseKey: z.string().nullable(),
  audience: presentedTemplateAudienceSchema.nullable(),
  actions: z.array(z.object({ label: z.string(), url: z.string() })),
  renotify: z.boolean(),
  requireInteraction: z.boolean(),
  silent: z.boolean(),
  badge: z.string().nullable(),
  appBadge: z.number().nullable(),
  /** null when none. */
  data: z.unknown(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Template = z.infer<typeof templateSchema>;

/** GET /templates: every template, by name. */
export const templatesResponseSchema = z.object({ templates: z.array(templateSchema) });
export type TemplatesResponse = z.infer<typeof templatesResponseSchema>;

/** GET, POST, PATCH /templates(/:id). */
export const templateResponseSchema = z.object({ template: templateSchema });
export type TemplateResponse = z.infer<typeof templateResponseSchema>;
