import { z } from "zod";

/** GET /stats?days= (signed in): the charts of Visão geral. Dates are YYYY-MM-DD in SINO_TIME_ZONE. */
export const STATS_DEFAULT_DAYS = 30;
export const STATS_MAX_DAYS = 366;

export const statsQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(STATS_MAX_DAYS).optional(),
  /** A site id: subscribers over time, by channel and by browser counted on that site only (sends stay global). */
  site: z.string().regex(/^\d{1,15}$/, { error: "site_not_found" }).optional(),
});
export type StatsQuery = z.input<typeof statsQuerySchema>;

export const statsResponseSchema = z.object({
  /** One row per day, oldest first; `total` is the count at the end of that day. */
  subscribersOverTime: z.array(z.object({ date: z.string(), total: z.number().int(), added: z.number().int(), removed: z.number().int() })),
  /** One row per day, oldest first; `clickRate` = clicked / accepted, null when none accepted. */
  sends: z.array(
    z.object({ date: z.string(), sends: z.number().int(), accepted: z.number().int(), clicked: z.number().int(), clickRate: z.number().nullable() }),
  ),
  /** Every channel (archived included), most subscribers first. */
  byChannel: z.array(z.object({ slug: z.string(), name: z.string(), subscribers: z.number().int() })),
  /** Browser name as parsed from the registering User-Agent; `"Outro"` when unknown. */
  byBrowser: z.array(z.object({ browser: z.string(), subscribers: z.number().int() })),
});
export type StatsResponse = z.infer<typeof statsResponseSchema>;
