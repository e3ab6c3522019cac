import { checkEndpoint, type EndpointPolicy } from "../../push/endpoint-policy.js";
import { checkAuth, checkP256dh } from "../../push/key-policy.js";
import { isValidUserId } from "../../shared/api/user-id.js";
import type { ErrorCode } from "../../shared/errors.js";
import { hasControlCharacters } from "../../shared/api/text.js";
import type { ImportRow } from "../../store/subscription-import-repository.js";
import { validTimeZone } from "../people/browser-facts.js";
import type { RawRow } from "./raw-row.js";

/** What the checks of a row need: the registration's policies and the site's channels. */
export interface RowChecks {
  readonly endpointPolicy: EndpointPolicy;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION. */
  readonly maxChannels: number;
  /** Active channels by slug, and the default ones (what a row naming none receives). */
  readonly channels: { readonly bySlug: ReadonlyMap<string, number>; readonly defaults: readonly number[] };
  /** Tags whose key is a channel's slug put the subscription in that channel (`--channels-from-tags`). */
  readonly channelsFromTags: boolean;
  /** The import's clock: a creation or visit time after it is unknown, not trusted. */
  readonly now: number;
}

export type CheckedRow = { ok: true; row: ImportRow } | { ok: false; line: number; code: ErrorCode };

/**
 * A row passes exactly what a browser's registration passes (POST /subscriptions): the endpoint
 * policy, p256dh on the curve, a 16-byte auth secret, a valid user id, known channels; and like
 * there, a time zone Intl does not know is dropped rather than refused.
 */
export function checkRow(raw: RawRow, checks: RowChecks): CheckedRow {
  const line = raw.line;
  const refuse = (code: ErrorCode): CheckedRow => ({ ok: false, line, code });
  if (raw.unreadable === true) return refuse("import_row_invalid");
  if (raw.unsubscribed === true) return refuse("import_unsubscribed");
  if (raw.endpoint === undefined || raw.p256dh === undefined || raw.auth === undefined) return refuse("import_field_missing");
  // The API refuses control characters in every text field (text.ts); URL parsing would drop some silently.
  if ([raw.endpoint, raw.p256dh, raw.auth, raw.userId ?? ""].some((text) => hasControlCharacters(text))) return refuse("text_control_characters");
  const endpoint = checkEndpoint(raw.endpoint, checks.endpointPolicy);
  if (!endpoint.ok) return refuse(endpoint.code);
  const p256dh = checkP256dh(raw.p256dh);
  if (!p256dh.ok) return refuse(p256dh.code);
  const auth = checkAuth(raw.auth);
  if (!auth.ok) return refuse(auth.code);
  if (raw.userId !== undefined && !isValidUserId(raw.userId)) return refuse("user_id_invalid");
  const channels = channelsOf(raw, checks);
  if (typeof channels === "string") return refuse(channels);
  return {
    ok: true,
    row: {
      line,
      endpoint: endpoint.endpoint,
      p256dh: p256dh.value,
      auth: auth.value,
      personId: raw.userId ?? null,
      channelIds: channels,
      timeZone: validTimeZone(raw.timeZone),
      createdAt: timeOf(raw.createdAt, checks.now),
      lastVisitAt: timeOf(raw.lastVisitAt, checks.now),
    },
  };
}

/**
 * The channels the row names (every slug must be an active channel, at most the per-subscription
 * limit, as in PUT /subscriptions/channels); with `channelsFromTags`, a tag whose key is a
 * channel's slug and whose value is not false-like adds that channel (other tags are ignored).
 * Naming none: the default channels, as a new browser subscription gets.
 */
function channelsOf(raw: RawRow, checks: RowChecks): number[] | ErrorCode {
  const ids = new Set<number>();
  for (const slug of raw.channels ?? []) {
    const id = checks.channels.bySlug.get(slug.toLowerCase());
    if (id === undefined) return "channel_not_found";
    ids.add(id);
  }
  if (checks.channelsFromTags && raw.tags !== undefined) {
    for (const [key, value] of Object.entries(raw.tags)) {
      const id = checks.channels.bySlug.get(key.trim().toLowerCase());
      if (id !== undefined && isTrueTag(value)) ids.add(id);
    }
  }
  if (ids.size > checks.maxChannels) return "too_many_channels";
  return ids.size === 0 ? [...checks.channels.defaults] : [...ids];
}

/** OneSignal tags are strings: `"1"`, `"true"`, `"sim"`, a date… Empty, 0, false, no and não mean not. */
function isTrueTag(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0) return false;
  return !/^(|0|false|no|n|nao|não|off)$/i.test(String(value).trim());
}

/**
 * Epoch seconds or milliseconds (a number, or digits), or a date text (`2024-03-01T10:00:00Z`,
 * OneSignal's `2024-03-01 10:00:00 UTC`). Anything else, or a time in the future: unknown (null).
 */
function timeOf(value: string | number | undefined, now: number): number | null {
  if (value === undefined) return null;
  let ms: number;
  if (typeof value === "number" || /^\d+(\.\d+)?$/.test(value)) {
    const n = Number(value);
    ms = n < 1e11 ? n * 1000 : n;
  } else ms = Date.parse(value.replace(/ UTC$/i, "Z").replace(/^(\d{4}-\d\d-\d\d) /, "$1T"));
  if (!Number.isFinite(ms) || ms <= 0 || ms > now) return null;
  return Math.round(ms);
}
