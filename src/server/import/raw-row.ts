/**
 * One row of an import file as the file spells it, before any check: the same shape whatever the
 * format (web-push JSON, a CSV with named columns, OneSignal's CSV export).
 */
export interface RawRow {
  /** 1-based line where the row starts (a CSV's header is line 1). */
  readonly line: number;
  /** Set when the row could not be read at all (bad JSON, a broken CSV record). */
  readonly unreadable?: true;
  readonly endpoint?: string | undefined;
  readonly p256dh?: string | undefined;
  readonly auth?: string | undefined;
  readonly userId?: string | undefined;
  /** Channel slugs the file names for it (a JSON array, or a CSV cell split on `;`, `|`, `,` or spaces). */
  readonly channels?: readonly string[] | undefined;
  /** The old sender's tags (OneSignal's `tags` column: a JSON object). */
  readonly tags?: Readonly<Record<string, unknown>> | undefined;
  readonly timeZone?: string | undefined;
  readonly createdAt?: string | number | undefined;
  readonly lastVisitAt?: string | number | undefined;
  /** OneSignal's `invalid_identifier` = `t`: the subscriber unsubscribed there. */
  readonly unsubscribed?: boolean;
}

/** Which field of a row a (lower-cased, trimmed) CSV column or JSON property fills. */
type Field = "endpoint" | "p256dh" | "auth" | "userId" | "channels" | "tags" | "timeZone" | "createdAt" | "lastVisitAt" | "unsubscribed";

/**
 * Column names, ours and the old senders'. OneSignal's export (POST /players/csv_export, with
 * `extra_fields` web_auth, web_p256, external_user_id): `identifier` is the push endpoint for web
 * push, `web_p256` / `web_auth` its keys, `external_user_id` the host's user id, `tags` a JSON
 * object, `timezone_id` the IANA zone (its `timezone` is an offset in seconds: not used),
 * `last_active` the last visit and `invalid_identifier` `t` for an unsubscribed device.
 */
const COLUMNS: Readonly<Record<string, Field>> = {
  endpoint: "endpoint",
  identifier: "endpoint",
  p256dh: "p256dh",
  "keys.p256dh": "p256dh",
  web_p256: "p256dh",
  auth: "auth",
  "keys.auth": "auth",
  web_auth: "auth",
  user_id: "userId",
  userid: "userId",
  external_user_id: "userId",
  external_id: "userId",
  channels: "channels",
  tags: "tags",
  time_zone: "timeZone",
  timezone_id: "timeZone",
  created_at: "createdAt",
  last_active: "lastVisitAt",
  last_visit_at: "lastVisitAt",
  invalid_identifier: "unsubscribed",
};

/** The columns that make a CSV OneSignal's export rather than one of our own. */
export const ONESIGNAL_COLUMNS: ReadonlySet<string> = new Set(["web_p256", "web_auth"]);

/** For each header cell, the field it fills (undefined: a column Sino does not read). */
export function columnFields(header: readonly string[]): Array<Field | undefined> {
  return header.map((name) => COLUMNS[name.trim().toLowerCase()]);
}

/** Whether a CSV header names the endpoint and both keys. */
export function hasKeyColumns(header: readonly string[]): boolean {
  const fields = new Set(columnFields(header));
  return fields.has("endpoint") && fields.has("p256dh") && fields.has("auth");
}

/** A CSV record (cells in header order) as a row. */
export function rowOfRecord(line: number, cells: readonly string[], fields: ReadonlyArray<Field | undefined>): RawRow {
  const row: Record<string, unknown> = { line };
  fields.forEach((field, i) => {
    const cell = cells[i]?.trim() ?? "";
    if (field === undefined || cell === "") return;
    if (field === "channels") row.channels = splitSlugs(cell);
    else if (field === "tags") row.tags = parseTags(cell);
    else if (field === "unsubscribed") row.unsubscribed = /^(t|true|1)$/i.test(cell);
    else row[field] = cell;
  });
  return row as unknown as RawRow;
}

/**
 * A JSON value of a web-push file as a row: `PushSubscription.toJSON()` (`{ endpoint, keys: {
 * p256dh, auth } }`), with optional `userId`, `channels`, `tags`, `timeZone`, `createdAt`.
 * Properties of other types are left out, so the checks report what is missing.
 */
export function rowOfJson(line: number, value: unknown): RawRow {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { line, unreadable: true };
  const object = value as Record<string, unknown>;
  const keys = typeof object.keys === "object" && object.keys !== null ? (object.keys as Record<string, unknown>) : {};
  const channels = Array.isArray(object.channels) ? object.channels.filter((slug): slug is string => typeof slug === "string") : undefined;
  const tags = typeof object.tags === "object" && object.tags !== null && !Array.isArray(object.tags) ? (object.tags as Record<string, unknown>) : undefined;
  return {
    line,
    endpoint: stringOf(object.endpoint),
    p256dh: stringOf(keys.p256dh ?? object.p256dh),
    auth: stringOf(keys.auth ?? object.auth),
    userId: stringOf(object.userId ?? object.user_id ?? object.external_user_id),
    channels,
    tags,
    timeZone: stringOf(object.timeZone ?? object.time_zone),
    createdAt: timeOf(object.createdAt ?? object.created_at),
    lastVisitAt: timeOf(object.lastVisitAt ?? object.last_visit_at),
  };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function timeOf(value: unknown): string | number | undefined {
  return typeof value === "number" ? value : stringOf(value);
}

function splitSlugs(cell: string): string[] {
  return cell.split(/[;|,\s]+/).filter((slug) => slug !== "");
}

/** OneSignal writes a device's tags as a JSON object; anything else carries no tags. */
function parseTags(cell: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(cell);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
