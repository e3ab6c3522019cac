import { z } from "zod";

/** The file formats `sino import` and POST /subscribers/import read. */
export const IMPORT_FORMATS = ["webpush-json", "csv", "onesignal-csv"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** At most this many line numbers are listed per refusal reason; its count stays exact. */
export const IMPORT_LISTED_LINES = 20;

/**
 * POST /subscribers/import query: the body is the file itself (CSV, NDJSON, a JSON array, or any
 * of them gzipped), streamed. `site`: a site's id or key (default: Sino's own); `format`: skip
 * auto-detection; `channelsFromTags`: OneSignal tags (or a CSV's `tags` column) that name a
 * channel put the subscription in it; `dryRun`: check and count, store nothing.
 */
export const importQuerySchema = z.strictObject({
  site: z.string().max(64).optional(),
  format: z.enum(IMPORT_FORMATS, { error: "import_format_unknown" }).optional(),
  channelsFromTags: z.enum(["true", "false"]).optional(),
  dryRun: z.enum(["true", "false"]).optional(),
});
export type ImportQuery = z.infer<typeof importQuerySchema>;

/** Rows refused for one reason: the stable error code, how many, and the first line numbers. */
export const importRefusalSchema = z.object({
  code: z.string(),
  count: z.number().int(),
  /** 1-based line numbers in the file (a CSV's header is line 1), at most IMPORT_LISTED_LINES. */
  lines: z.array(z.number().int()),
});
export type ImportRefusal = z.infer<typeof importRefusalSchema>;

/** What an import did: `rows` = imported + existing + refused. */
export const importSummarySchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  siteId: z.string(),
  dryRun: z.boolean(),
  rows: z.number().int(),
  /** New subscriptions stored (in a dry run: that would be stored). */
  imported: z.number().int(),
  /** Already known with the same auth secret ("já existiam"), earlier in the file included: left as they were. */
  existing: z.number().int(),
  refused: z.number().int(),
  refusals: z.array(importRefusalSchema),
  durationMs: z.number().int(),
  rowsPerSecond: z.number().int(),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;
export const importResponseSchema = z.object({ summary: importSummarySchema });
