/**
 * The two plaintexts a push of a notification can carry, and their exact encrypted size. Shared by
 * the server (which builds and stores both forms, and refuses a send that cannot fit one record)
 * and the Painel (which shows the remaining budget while an operator writes): browser-safe, no
 * Node imports.
 *
 * - The **classic** payload is the JSON Sino's service worker reads (src/client/sw): it shows the
 *   notification itself.
 * - The **declarative** payload is a W3C Push API "declarative push message"
 *   (https://w3c.github.io/push-api/#declarative-push-message; WebKit, "Meet Declarative Web
 *   Push"): the browser shows it without running a service worker. `mutable: true` still hands it
 *   to Sino's worker where one runs, so shown/clicked keep being reported.
 */

/** RFC 8188 record size Sino announces (RFC 8291 §4: the most push services accept). */
export const PUSH_RECORD_SIZE = 4096;
/**
 * What aes128gcm adds to the plaintext of a single record: the header (salt 16, rs 4, idlen 1,
 * keyid = the sender's 65-byte public key; RFC 8188 §2.1), the 0x02 last-record delimiter and the
 * 16-byte AES-GCM tag (RFC 8188 §2, RFC 8291 §4). No padding.
 */
export const RECORD_OVERHEAD = 86 + 1 + 16;
/** The most plaintext one record holds: 3,993 bytes. */
export const MAX_PAYLOAD_BYTES = PUSH_RECORD_SIZE - RECORD_OVERHEAD;

/** Push API: "Used to disambiguate a declarative push message from other JSON documents". */
export const DECLARATIVE_PUSH_MAGIC = 8030;
/** Sino's texts are pt-BR; `lang`/`dir` of the declarative notification. */
export const NOTIFICATION_LANG = "pt-BR";
export const NOTIFICATION_DIR = "ltr";

/** The ids of a notification's action buttons, in order (POST /events `action`). */
export const ACTION_IDS = ["1", "2"] as const;
export type ActionId = (typeof ACTION_IDS)[number];

/** Limits of the new notification fields, beside NOTIFICATION_LIMITS (notifications.ts). */
export const PAYLOAD_LIMITS = {
  /** Action buttons per notification (Chrome shows two; `Notification.maxActions` is 2). */
  actions: 2,
  /** An action button's label, in characters. */
  actionLabel: 30,
  /** `navigator.setAppBadge()` count. */
  appBadge: 99_999,
  /** `data`, as UTF-8 bytes of its JSON. */
  dataBytes: 1_024,
} as const;

/** The largest id, to size a payload before the id exists. */
export const LONGEST_ID = "9".repeat(16);
/** The largest tag an id can produce (`sino-` and the longest id). */
export const LONGEST_DEFAULT_TAG = `sino-${LONGEST_ID}`;

export interface PayloadAction {
  readonly label: string;
  /** As stored: an https link or a path on Sino's site. */
  readonly url: string;
}

/** A notification's content as it goes into a push. `null` and absent mean the same: not set. */
export interface PayloadFields {
  readonly title: string;
  readonly body?: string | null;
  /** Opened on click: an absolute link or a path on Sino's site. */
  readonly url?: string | null;
  readonly icon?: string | null;
  readonly image?: string | null;
  readonly badge?: string | null;
  /** The notification's tag: its collapse key, else `sino-<id>`. */
  readonly tag: string;
  /** Only put in a push when true (the caller keeps it for a collapse key: it needs a tag to mean anything). */
  readonly renotify?: boolean | null;
  readonly requireInteraction?: boolean | null;
  readonly silent?: boolean | null;
  readonly actions?: readonly PayloadAction[] | null;
  readonly appBadge?: number | null;
  /** Any JSON value for the site's page; `null` is none. */
  readonly data?: unknown;
  /** The send's id, so Sino's worker can report shown/clicked/closed. */
  readonly id?: string | null;
}

const UTF8 = new TextEncoder();

/** UTF-8 bytes of a text (what the encryption sees). */
export function utf8Length(value: string): number {
  return UTF8.encode(value).byteLength;
}

/** The exact length of the encrypted body of one push with this plaintext (one aes128gcm record). */
export function encryptedRecordSize(payloadJson: string): number {
  return utf8Length(payloadJson) + RECORD_OVERHEAD;
}

function present<T>(value: T | null | undefined): value is T {
  return value !== null && value !== undefined;
}

/**
 * The classic payload (what Sino's service worker reads): today's members (`title`, `body`,
 * `icon`, `image`, `badge`, `tag`, `url`, `id`), then the full notification's, each only when set
 * (booleans only when true): `renotify`, `requireInteraction`, `silent`, `actions` (`{ action:
 * "1"|"2", title, url }`), `appBadge`, `data`. Links stay as written; the worker resolves a path
 * against its own origin.
 */
export function classicPayload(fields: PayloadFields): string {
  const actions = fields.actions ?? [];
  return JSON.stringify({
    title: fields.title,
    ...(present(fields.body) ? { body: fields.body } : {}),
    ...(present(fields.icon) ? { icon: fields.icon } : {}),
    ...(present(fields.image) ? { image: fields.image } : {}),
    ...(present(fields.badge) ? { badge: fields.badge } : {}),
    tag: fields.tag,
    ...(present(fields.url) ? { url: fields.url } : {}),
    ...(present(fields.id) ? { id: fields.id } : {}),
    ...(fields.renotify === true ? { renotify: true } : {}),
    ...(fields.requireInteraction === true ? { requireInteraction: true } : {}),
    ...(fields.silent === true ? { silent: true } : {}),
    ...(actions.length === 0 ? {} : { actions: actions.map((action, index) => ({ action: ACTION_IDS[index], title: action.label, url: action.url })) }),
    ...(present(fields.appBadge) ? { appBadge: fields.appBadge } : {}),
    ...(present(fields.data) ? { data: fields.data } : {}),
  });
}

/**
 * An absolute URL for a link as stored: a path (`/avisos`) resolves against `base` (Sino's public
 * URL); an absolute one is kept. The declarative parser needs absolute URLs: no service worker of
 * the site resolves them for it.
 */
export function absoluteLink(link: string, base: string): string {
  return new URL(link, base).href;
}

/**
 * The declarative payload (Push API "declarative push message"):
 * `{ web_push: 8030, notification: { title, body?, navigate, lang, dir, tag, silent?, icon?,
 * image?, badge?, requireInteraction?, renotify?, actions?, data }, app_badge?, mutable: true }`.
 *
 * - `navigate` is required and absolute: the link resolved against `origin` (Sino's public URL);
 *   **with no link, `origin` itself** (Sino's public page), since the declarative form has no
 *   "just close it" and a click must land somewhere that exists.
 * - Each action is `{ action: "1"|"2", title, navigate }` (all three required by the parser).
 * - `data` is `{ sinoId, url, data? }`: the send's id and the resolved link for Sino's worker (when
 *   `mutable` hands the push to it) and the site's own `data` for its page.
 * - `app_badge` is a top-level member (Push API PR #402): an unsigned integer.
 */
export function declarativePayload(fields: PayloadFields, origin: string): string {
  const navigate = absoluteLink(present(fields.url) ? fields.url : origin, origin);
  const actions = fields.actions ?? [];
  const notification = {
    title: fields.title,
    ...(present(fields.body) ? { body: fields.body } : {}),
    navigate,
    lang: NOTIFICATION_LANG,
    dir: NOTIFICATION_DIR,
    tag: fields.tag,
    ...(fields.silent === true ? { silent: true } : {}),
    ...(present(fields.icon) ? { icon: absoluteLink(fields.icon, origin) } : {}),
    ...(present(fields.image) ? { image: absoluteLink(fields.image, origin) } : {}),
    ...(present(fields.badge) ? { badge: absoluteLink(fields.badge, origin) } : {}),
    ...(fields.requireInteraction === true ? { requireInteraction: true } : {}),
    ...(fields.renotify === true ? { renotify: true } : {}),
    ...(actions.length === 0
      ? {}
      : { actions: actions.map((action, index) => ({ action: ACTION_IDS[index], title: action.label, navigate: absoluteLink(action.url, origin) })) }),
    data: {
      ...(present(fields.id) ? { sinoId: fields.id } : {}),
      url: navigate,
      ...(present(fields.data) ? { data: fields.data } : {}),
    },
  };
  return JSON.stringify({
    web_push: DECLARATIVE_PUSH_MAGIC,
    notification,
    ...(present(fields.appBadge) ? { app_badge: fields.appBadge } : {}),
    mutable: true,
  });
}

export interface PayloadBudget {
  /** The encrypted size of the larger form, with the longest id (and tag, when none is given). */
  readonly bytes: number;
  /** PUSH_RECORD_SIZE. */
  readonly max: number;
  /** `max - bytes`: negative when over. */
  readonly remaining: number;
}

/**
 * How much of one push record a notification uses before it has an id: the worse of the classic
 * and the declarative form, sized with the longest id and, without a collapse key, the longest
 * default tag. The server refuses a send whose `remaining` is negative; the Painel shows it live.
 */
export function payloadBudget(fields: Omit<PayloadFields, "id" | "tag"> & { tag?: string | null }, origin: string): PayloadBudget {
  const sized: PayloadFields = { ...fields, tag: present(fields.tag) && fields.tag !== "" ? fields.tag : LONGEST_DEFAULT_TAG, id: LONGEST_ID };
  const bytes = Math.max(encryptedRecordSize(classicPayload(sized)), encryptedRecordSize(declarativePayload(sized, origin)));
  return { bytes, max: PUSH_RECORD_SIZE, remaining: PUSH_RECORD_SIZE - bytes };
}
