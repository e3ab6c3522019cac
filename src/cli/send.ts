import type { Translator } from "../server/i18n.js";
import { QUICK_PUBLISH_EVERYONE, type CreateNotificationRequest, type CreateNotificationResponse, type Notification } from "../shared/api/notifications.js";
import { API_ROUTES } from "../shared/api/routes.js";
import { DEFAULT_TIME_ZONE } from "../shared/time/zoned-time.js";
import { DEFAULT_SERVER, callApi, type ApiIo } from "./api-call.js";
import { formatScheduleTime, parseScheduleTime } from "./schedule-time.js";
import { savedSegmentId } from "./segments.js";
import { findTemplate } from "./templates.js";

export interface SendOptions {
  /** Required unless a template gives it. */
  readonly title?: string;
  /** A saved template, by name or id: its content and audience, which the other options override. */
  readonly template?: string;
  readonly body?: string;
  readonly channel?: string;
  /** A site id (Painel → Sites): only the subscribers made on that site. */
  readonly site?: string;
  /** User ids of the host app's people (repeatable): a send to every subscription of each. */
  readonly user?: readonly string[];
  /** A saved segment, by id or name: its subscriptions when the notification goes out. */
  readonly segment?: string;
  /** An expression written for this notification (`plano = premium e não tem optout`). */
  readonly segmentExpr?: string;
  /** `marketing` (default) or `transactional` (checked by the server). */
  readonly category?: string;
  readonly link?: string;
  readonly schedule?: string;
  /** false (`--no-notice`): kept off the public Avisos page. */
  readonly notice?: boolean;
  readonly server?: string;
  readonly token?: string;
  /** `Rótulo=https://…` (repeatable, at most two): action buttons. */
  readonly action?: readonly string[];
  /** The collapse key: a later notification with the same tag replaces this one. */
  readonly tag?: string;
  readonly renotify?: boolean;
  readonly requireInteraction?: boolean;
  readonly silent?: boolean;
  readonly badge?: string;
  /** The installed app's icon count (checked by the server). */
  readonly appBadge?: string;
  /** JSON for the site's page. */
  readonly data?: string;
  /** gates: skip caps, windows and sleeping (admin tokens only; the server refuses others). */
  readonly exempt?: boolean;
  /** gates: also reach sleeping subscribers, once per sleeping period. */
  readonly reengagement?: boolean;
}

/** `Ver mapa=https://…` or `Avisos=/avisos`: the label up to the `=` that starts the link. */
export function parseActionOption(value: string): { label: string; url: string } | null {
  const match = /^(.+?)=((?:https?:\/\/|\/).*)$/s.exec(value);
  return match === null ? null : { label: match[1]!.trim(), url: match[2]!.trim() };
}

export type SendIo = ApiIo;

/** A refused send is "O servidor recusou o envio: …", not the segments commands' wording. */
const SEND_TEXTS = { noToken: "cli:send.noToken", refused: "cli:send.refused" } as const;

/**
 * `sino send`: creates a send on a running Sino through its HTTP API with an API token, and
 * prints its id and status in pt-BR. Returns the exit code: 0 created, 1 refused by the server
 * or unreachable, 2 usage (no token, a bad --schedule or --server).
 */
export async function sendCommand(options: SendOptions, io: SendIo, { t }: Translator): Promise<0 | 1 | 2> {
  const usage = (message: string) => {
    io.stderr(`${message}\n${t("cli:send.usage")}\n`);
    return 2 as const;
  };
  if (options.title === undefined && options.template === undefined) return usage(t("cli:send.noTitle"));
  const token = options.token ?? io.env.SINO_TOKEN;
  if (token === undefined || token.trim() === "") return usage(t("cli:send.noToken"));
  const server = (options.server ?? io.env.SINO_URL ?? DEFAULT_SERVER).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+/i.test(server)) return usage(t("cli:send.badServer", { server }));
  const timeZone = io.env.SINO_TIME_ZONE ?? DEFAULT_TIME_ZONE;

  const people = options.user ?? [];
  if (people.length > 0 && options.channel !== undefined) return usage(t("cli:send.userWithChannel"));
  const segmentChoices = [options.segment, options.segmentExpr].filter((choice) => choice !== undefined).length;
  if (segmentChoices > 1 || (segmentChoices === 1 && (people.length > 0 || options.channel !== undefined))) return usage(t("cli:send.segmentWithOther"));
  // The audience and category are typed loosely: a channel name, a site id, a user id or a
  // category is checked by the server, which knows them.
  const request: Omit<CreateNotificationRequest, "audience" | "category"> & {
    audience?: { type: string; channels?: string[]; users?: string[]; segment?: string; expression?: string; sites?: string[] };
    category?: string;
  } = { title: options.title ?? "" };
  if (options.template !== undefined) {
    const found = await findTemplate(options.template, { server, token }, io, { t });
    if (!found.ok) return found.code;
    const template = found.body;
    request.title = options.title ?? template.title;
    for (const field of ["body", "url", "icon", "image", "collapseKey"] as const) {
      const value = template[field];
      if (value !== null) request[field] = value;
    }
    request.urgency = template.urgency;
    request.ttl = template.ttl;
    if (template.badge !== null) request.badge = template.badge;
    if (template.actions.length > 0) request.actions = template.actions.map(({ label, url }) => ({ label, url }));
    for (const flag of ["renotify", "requireInteraction", "silent"] as const) if (template[flag]) request[flag] = true;
    if (template.appBadge !== null) request.appBadge = template.appBadge;
    if (template.data !== null) request.data = template.data;
    if (template.audience !== null) request.audience = { ...template.audience, ...(template.audience.sites === undefined ? {} : { sites: [...template.audience.sites] }) };
  }
  if (options.body !== undefined) request.body = options.body;
  if (options.link !== undefined) request.url = options.link;
  if (options.category !== undefined) request.category = options.category;
  if (options.notice === false) request.notice = "hidden";
  if (options.action !== undefined && options.action.length > 0) {
    const actions = options.action.map(parseActionOption);
    const bad = options.action.find((_, i) => actions[i] === null);
    if (bad !== undefined) return usage(t("cli:send.badAction", { value: bad }));
    request.actions = actions as Array<{ label: string; url: string }>;
  }
  if (options.tag !== undefined) request.collapseKey = options.tag;
  for (const flag of ["renotify", "requireInteraction", "silent"] as const) if (options[flag] === true) request[flag] = true;
  for (const flag of ["exempt", "reengagement"] as const) if (options[flag] === true) request[flag] = true; // gates
  if (options.badge !== undefined) request.badge = options.badge;
  // A number goes as one; anything else as text, which the server refuses with its own message.
  if (options.appBadge !== undefined) request.appBadge = (/^-?\d+(\.\d+)?$/.test(options.appBadge) ? Number(options.appBadge) : options.appBadge) as number;
  if (options.data !== undefined) {
    try {
      request.data = JSON.parse(options.data) as unknown;
    } catch {
      return usage(t("cli:send.badData", { value: options.data }));
    }
  }
  const channel = options.channel ?? QUICK_PUBLISH_EVERYONE;
  // `todos` is everyone; another name is a channel's slug (checked by the server). With no
  // audience option, a template's audience stands.
  if (options.segment !== undefined) {
    const id = await savedSegmentId(options.segment, { server, token }, io, { t });
    if (!id.ok) return id.code;
    request.audience = { type: "segment", segment: id.body };
  } else if (options.segmentExpr !== undefined) request.audience = { type: "segment", expression: options.segmentExpr };
  else if (people.length > 0) request.audience = { type: "users", users: [...people] };
  else if (options.channel !== undefined || request.audience === undefined) request.audience = channel === QUICK_PUBLISH_EVERYONE ? { type: "all" } : { type: "channels", channels: [channel] };
  // --site narrows either to one site's subscribers (the server checks the id).
  if (options.site !== undefined) request.audience.sites = [options.site];
  if (options.schedule !== undefined) {
    const at = parseScheduleTime(options.schedule, timeZone);
    if (at === null) return usage(t("cli:send.badSchedule", { value: options.schedule }));
    request.sendAt = new Date(at).toISOString();
  }

  const answer = await callApi<CreateNotificationResponse>({ server, token }, io, { t }, "POST", API_ROUTES.notifications, request, SEND_TEXTS);
  if (!answer.ok) return answer.code;
  const created = answer.body;
  io.stdout(`${describe(created.notification, timeZone, t)}\n`);
  // Said when it was asked for, or when a notification that would be public by default is not (a test to one
  // browser never is; a send to people is kept off unless it asks).
  const keptOff = created.notification.notice === "hidden" && (options.notice === false || !["endpoint", "users"].includes(created.notification.audience.type));
  if (keptOff) io.stdout(`${t("cli:send.notPublished")}\n`);
  const rules = deliveryRulesLine(created.notification, t); // gates
  if (rules !== undefined) io.stdout(`${rules}\n`);
  // Whom the caller must reach another way (e-mail, SMS): their ids, one line.
  const missing = created.usersWithoutSubscriptions ?? [];
  if (missing.length > 0) io.stdout(`${t("cli:send.withoutSubscriptions", { count: missing.length, ids: missing.join(", ") })}\n`);
  return 0;
}

/** gates: an exempt or re-engagement send says so; a send already over says who was kept back. */
function deliveryRulesLine(n: Notification, t: Translator["t"]): string | undefined {
  const parts: string[] = [];
  if (n.exempt) parts.push(t("delivery-rules:cli.exempt"));
  if (n.reengagement) parts.push(t("delivery-rules:cli.reengagement"));
  if (n.counts.limited > 0 || n.counts.asleep > 0) parts.push(t("delivery-rules:cli.keptBack", { limited: n.counts.limited, asleep: n.counts.asleep }));
  return parts.length === 0 ? undefined : parts.join(" ");
}

function describe(n: Notification, timeZone: string, t: Translator["t"]): string {
  const status = t(`cli:send.status.${n.status}`);
  if (n.status === "scheduled" && n.sendAt !== null) {
    return t("cli:send.scheduled", { id: n.id, status, when: formatScheduleTime(Date.parse(n.sendAt), timeZone), zone: timeZone });
  }
  return t("cli:send.created", { id: n.id, status, count: n.counts.queued, total: new Intl.NumberFormat("pt-BR").format(n.counts.queued) });
}
