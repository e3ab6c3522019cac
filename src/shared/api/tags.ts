import { z } from "zod";
import { isValidTagKey, isValidTagValue, TAG_LIMITS, type TagValue } from "./tag-rule.js";
import { userIdSchema } from "./user-id.js";

/**
 * Tags (issue 24): trusted tags on people (set by the host's server: this API, or signed with the
 * person's identity) and visitor tags on subscriptions (set by the page). The rules themselves are
 * in tag-rule.ts, without zod, so the bell client checks tags the same way.
 */
export {
  TAG_KEY_PATTERN,
  TAG_LIMITS,
  canonicalTags,
  isoDateMs,
  isValidTagKey,
  isValidTagValue,
  tagValueOf,
  typedTagValue,
  type TagValue,
  type Tags,
  type TagsPatch,
  type TypedTagValue,
} from "./tag-rule.js";

export const tagKeySchema = z.string({ error: "tag_key_invalid" }).refine(isValidTagKey, { error: "tag_key_invalid", abort: true });

/** Text (printable, 1–255 characters, no edge spaces), a finite number, or `true` (key-only). */
export const tagValueSchema = z
  .union([z.string(), z.number(), z.literal(true)], { error: "tag_value_invalid" })
  .refine((value): value is TagValue => isValidTagValue(value), { error: "tag_value_invalid", abort: true });

/**
 * Keys are checked by hand rather than by the record's key schema: zod reports a bad record key
 * as a generic `invalid_key`, and the API answers `tag_key_invalid` naming the key (`tags.Plano`).
 */
function tagRecord<V extends z.ZodType>(value: V, maxKeys: number) {
  return z.record(z.string(), value).superRefine((tags, ctx) => {
    for (const key of Object.keys(tags)) {
      if (!isValidTagKey(key)) {
        ctx.addIssue({ code: "custom", message: "tag_key_invalid", path: [key] });
        return;
      }
    }
    if (Object.keys(tags).length > maxKeys) ctx.addIssue({ code: "custom", message: "too_many_tags" });
  });
}

/** `{ key: value }`; at most 100 (a write may still exceed the limit with the tags already there: `too_many_tags`). */
export const tagsSchema = tagRecord(tagValueSchema, TAG_LIMITS.perOwner);

/** A merge: a value sets the key, `null` removes it (up to 100 of each). */
export const tagsPatchSchema = tagRecord(tagValueSchema.nullable(), TAG_LIMITS.perOwner * 2);

/** GET/PUT/PATCH /people/:userId/tags → `{ tags }`. */
export const tagsResponseSchema = z.object({ tags: z.record(z.string(), z.union([z.string(), z.number(), z.literal(true)])) });
export type TagsResponse = z.infer<typeof tagsResponseSchema>;

export const personTagsRequestSchema = z.strictObject({ tags: tagsSchema });
export type PersonTagsRequest = z.infer<typeof personTagsRequestSchema>;
export const personTagsPatchSchema = z.strictObject({ tags: tagsPatchSchema });
export type PersonTagsPatch = z.infer<typeof personTagsPatchSchema>;

/** DELETE /people/:userId/tags/:key */
export const personTagParamsSchema = z.object({ userId: userIdSchema, key: tagKeySchema });

/**
 * POST /people/tags: up to 10,000 people in one request, one transaction, all or nothing; the
 * first invalid item answers 400 whose `field` is the dotted path of the item and its tag.
 */
export const bulkTagsRequestSchema = z.strictObject({
  people: z
    .array(z.strictObject({ userId: userIdSchema, tags: tagsSchema }))
    .max(TAG_LIMITS.bulkPeople, { error: "too_many_people" }),
  mode: z.enum(["merge", "replace"]).default("merge"),
});
export type BulkTagsRequest = z.input<typeof bulkTagsRequestSchema>;
export const bulkTagsResponseSchema = z.object({ updated: z.number().int() });
export type BulkTagsResponse = z.infer<typeof bulkTagsResponseSchema>;

/** Tags as the API answers them: `{ key: value }`, a key-only tag as `true`. */
export const tagMapSchema = tagsResponseSchema.shape.tags;

/** Trusted (its person's) and visitor (set by the page) tags of one subscription. */
export const subscriptionTagsSchema = z.object({
  trusted: tagMapSchema,
  visitor: tagMapSchema,
});
export type SubscriptionTags = z.infer<typeof subscriptionTagsSchema>;
