/**
 * The subscription columns the engagement gate reads, added to the workers' range query (and the
 * retries' read) so the gate needs no query of its own for sleeping subscribers.
 */
export const ENGAGEMENT_COLUMNS = ["created_at", "last_clicked_at", "last_visit_at", "reengaged_at"] as const;

export interface EngagementRow {
  readonly created_at: number | string;
  readonly last_clicked_at: number | string | null;
  readonly last_visit_at: number | string | null;
  readonly reengaged_at: number | string | null;
}

/** The last click or visit (`created_at` stands in for a visit before the first one) and the last re-engagement. */
export function engagementOf(row: EngagementRow): { lastActiveAt: number; reengagedAt: number | null } {
  const clicked = row.last_clicked_at === null ? 0 : Number(row.last_clicked_at);
  const visited = Number(row.last_visit_at ?? row.created_at);
  return { lastActiveAt: Math.max(clicked, visited), reengagedAt: row.reengaged_at === null ? null : Number(row.reengaged_at) };
}
