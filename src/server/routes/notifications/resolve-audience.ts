import type { ChannelRecord, ChannelsRepository } from "../../../store/channels-repository.js";
import type { Audience } from "../../../store/notifications-repository.js";
import type { SitesRepository } from "../../../store/sites-repository.js";
import { apiError } from "../../errors.js";

export interface AudienceDeps {
  /** Resolves channel slugs to active channel ids. */
  readonly channels?: Pick<ChannelsRepository, "listActive">;
  /** Checks the sites an audience is narrowed to. */
  readonly sites?: Pick<SitesRepository, "existingIds">;
}

/** Where a refusal points: a send's body (`audience.channels`) or GET /audience's query (`channels`). */
export interface AudienceFields {
  readonly channels: string;
  readonly sites: string;
}

/** What narrows an audience, as asked: channel slugs and site ids; absent or empty, no narrowing. */
export interface AudienceNarrowing {
  readonly channels?: readonly string[] | undefined;
  readonly sites?: readonly string[] | undefined;
}

export interface ResolvedAudience {
  readonly audience: Exclude<Audience, { kind: "endpoint" } | { kind: "people" }>;
  /** The chosen channels in the order asked, each once. */
  readonly channels: readonly ChannelRecord[];
}

/**
 * Turns a send's narrowing into the stored audience, refusing what it cannot name: one set of rules
 * for POST /notifications and for GET /audience, so the count the compose confirmation shows is
 * the count of the send that follows.
 */
export async function resolveAudience(deps: AudienceDeps, narrowing: AudienceNarrowing, fields: AudienceFields): Promise<ResolvedAudience> {
  let audience: ResolvedAudience["audience"] = { kind: "everyone" };
  let chosen: ChannelRecord[] = [];
  if (narrowing.channels !== undefined && narrowing.channels.length > 0) {
    const slugs = [...new Set(narrowing.channels)];
    const active = deps.channels === undefined ? [] : await deps.channels.listActive();
    const found = slugs.map((slug) => active.find((c) => c.slug === slug));
    // Archived channels are no longer targets; an unknown one is a mistake worth saying.
    if (found.some((c) => c === undefined)) throw apiError("channel_not_found", fields.channels);
    chosen = found.filter((c) => c !== undefined);
    audience = { kind: "channels", channels: chosen.map((c) => c.id), slugs };
  }
  if (narrowing.sites !== undefined && narrowing.sites.length > 0) {
    const wanted = [...new Set(narrowing.sites.map(Number))];
    const existing = deps.sites === undefined ? [] : await deps.sites.existingIds(wanted);
    if (existing.length !== wanted.length) throw apiError("audience_site_not_found", fields.sites);
    audience = { ...audience, sites: wanted.sort((a, b) => a - b) };
  }
  return { audience, channels: chosen };
}
