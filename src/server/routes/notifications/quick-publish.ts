import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  DEFAULT_NOTIFICATION_TTL,
  IDEMPOTENCY_KEY_HEADER,
  NOTIFICATION_LIMITS,
  NOTIFICATION_URGENCIES,
  PRIORITY_URGENCY,
  QUICK_PUBLISH_EVERYONE,
  createNotificationRequestSchema,
  createNotificationResponseSchema,
  type NotificationUrgency,
} from "../../../shared/api/notifications.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { text } from "../../../shared/api/text.js";
import { isErrorCode } from "../../../shared/errors.js";
import { apiError } from "../../errors.js";
import { OPERATOR_SECURITY } from "../../openapi.js";
import { firstHeader, headerText } from "./header-text.js";
import type { NotificationRoutesDeps } from "./notifications-deps.js";
import { checkIdempotencyKey, publish, type PublishDeps, type PublishRequest } from "./publish.js";
import { parseActionsHeader } from "./actions-header.js";
import { answers } from "../route-docs.js";

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Where a title may come from (ntfy's names). */
const TITLE_HEADERS = ["title", "x-title", "t"] as const;

/** The message is the body, so a little more than the longest text plus slack for a trailing newline. */
const BODY_LIMIT = 4096;

/**
 * `curl -H "Authorization: Bearer $TOKEN" -d "Backup concluído" https://sino.example/p/todos`,
 * in the spirit of ntfy: the request body (any content type — `curl -d` says form-urlencoded) is
 * the message; optional headers give the title (`Title`/`X-Title`), the link (`Click`/`X-Click`/
 * `X-Link`), the urgency (`Urgency`, or ntfy's `X-Priority`/`Priority` 1–5), the people
 * (`X-User`, repeated or comma-separated: a `users` send, on `/p/todos` only), the category
 * (`X-Category`), an `Idempotency-Key`, and the full notification: `X-Actions` (ntfy's
 * `view, Rótulo, https://…; view, …`), `X-Icon`, `X-Image`, `X-Badge`, `X-Tag` (the collapse key),
 * `X-Renotify`, `X-Require-Interaction`, `X-Silent` (yes/no, true/false, 1/0, sim/não),
 * `X-App-Badge` (a number) and `X-Data` (JSON). Without a title, a one-line message becomes the title.
 * `todos` is everyone; any other name is a channel's slug. Answers like POST /notifications.
 */
export async function registerQuickPublish(
  app: FastifyInstance,
  deps: NotificationRoutesDeps & { publishDeps: PublishDeps; rateLimit: Hook },
): Promise<void> {
  const { t } = deps.translator;
  await app.register(async (scope) => {
    // Only here: every body is text, whatever its declared type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      `${API_ROUTES.quickPublish}/:channel`,
      {
        onRequest: [deps.authenticator.requireScriptUser, deps.rateLimit],
        bodyLimit: BODY_LIMIT,
        schema: {
          operationId: "quickPublish",
          summary: t("api:routes.quickPublish"),
          description: t("api:descriptions.quickPublish"),
          tags: [t("api:tags.notifications")],
          security: OPERATOR_SECURITY,
          consumes: ["text/plain"],
          params: z.object({ channel: text().max(40) }),
          // No body at all (`curl -X POST`) arrives as null.
          body: z.string().nullish(),
          response: answers({ 201: createNotificationResponseSchema }),
        },
      },
      async (request, reply) => {
        // `todos` is everyone; any other name must be an active channel (checked by publish()).
        const channel = request.params.channel;
        // Said plainly rather than as a missing title: the body is the message.
        if ((request.body ?? "").trim() === "" && firstHeader(request.headers, TITLE_HEADERS) === undefined) {
          throw apiError("message_required", "body");
        }
        const people = userHeader(request.headers[USER_HEADER]);
        // People are reached wherever they subscribed: a channel in the path would say otherwise.
        if (people.length > 0 && channel !== QUICK_PUBLISH_EVERYONE) throw apiError("validation_failed", "X-User");
        // `X-Segment: 12`: a saved segment, matched on every channel (its expression may name some).
        const segment = firstHeader(request.headers, [SEGMENT_HEADER]);
        if (segment !== undefined && (channel !== QUICK_PUBLISH_EVERYONE || people.length > 0)) throw apiError("validation_failed", "X-Segment");
        const parsed = createNotificationRequestSchema.safeParse({ ...toRequest(request.body ?? "", request.headers, people, segment), ...fullNotificationHeaders(request.headers) });
        if (!parsed.success) {
          // The shared schema's messages are error codes (`title_too_long`), as on POST /notifications.
          const issue = parsed.error.issues[0];
          const code = issue?.message ?? "";
          const field = issue?.path[0] === "audience" && segment !== undefined ? "X-Segment" : quickField(issue?.path[0]);
          throw apiError(isErrorCode(code) ? code : "validation_failed", field);
        }
        const key = checkIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
        const body = channel === QUICK_PUBLISH_EVERYONE ? parsed.data : { ...parsed.data, audience: { type: "channels" as const, channels: [channel] } };
        const answer = await publish(deps.publishDeps, request.principal!, body, key, `${API_ROUTES.quickPublish}/${channel}`);
        if (answer.replayed) reply.header("idempotent-replayed", "true");
        request.log.info({ send: answer.body.notification.id, replayed: answer.replayed }, "quick publish");
        return reply.code(answer.statusCode).send(answer.body);
      },
    );
  });
}

/** Field names in the quick publish are headers: the error says which one. */
function quickField(path: PropertyKey | undefined): string | undefined {
  switch (path) {
    case "title":
      return "Title";
    case "url":
      return "Click";
    case "urgency":
      return "Urgency";
    case "body":
      return "body";
    case "audience":
      return "X-User";
    case "category":
      return "X-Category";
    case "actions":
      return "X-Actions";
    case "icon":
      return "X-Icon";
    case "image":
      return "X-Image";
    case "badge":
      return "X-Badge";
    case "collapseKey":
      return "X-Tag";
    case "renotify":
      return "X-Renotify";
    case "requireInteraction":
      return "X-Require-Interaction";
    case "silent":
      return "X-Silent";
    case "appBadge":
      return "X-App-Badge";
    case "data":
      return "X-Data";
    default:
      return undefined;
  }
}

const USER_HEADER = "x-user";

/** The full notification's headers (ntfy's names where it has one: `X-Actions`, `X-Icon`). */
const FULL_HEADERS = {
  actions: ["x-actions", "actions", "action"],
  icon: ["x-icon", "icon"],
  image: ["x-image", "image"],
  badge: ["x-badge", "badge"],
  collapseKey: ["x-tag", "x-collapse-key"],
  renotify: ["x-renotify", "renotify"],
  requireInteraction: ["x-require-interaction", "require-interaction"],
  silent: ["x-silent", "silent"],
  appBadge: ["x-app-badge", "app-badge"],
  data: ["x-data"],
} as const;

const YES = new Set(["1", "true", "yes", "sim", "on"]);
const NO = new Set(["0", "false", "no", "não", "nao", "off"]);

/** `X-Silent: sim` → true; a word that is neither yes nor no is refused (`validation_failed`, naming the header). */
function flagHeader(headers: FastifyRequest["headers"], names: readonly string[], field: string): boolean | undefined {
  const value = firstHeader(headers, names)?.toLowerCase();
  if (value === undefined) return undefined;
  if (YES.has(value)) return true;
  if (NO.has(value)) return false;
  throw apiError("validation_failed", field);
}

/** The full notification's fields from their headers, as POST /notifications takes them (the schema checks them). */
function fullNotificationHeaders(headers: FastifyRequest["headers"]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const actions = firstHeader(headers, FULL_HEADERS.actions);
  if (actions !== undefined) {
    const parsed = parseActionsHeader(actions);
    if (!parsed.ok) throw apiError("validation_failed", "X-Actions");
    fields.actions = parsed.actions;
  }
  for (const field of ["icon", "image", "badge", "collapseKey"] as const) {
    const value = firstHeader(headers, FULL_HEADERS[field]);
    if (value !== undefined) fields[field] = value;
  }
  const flags = { renotify: "X-Renotify", requireInteraction: "X-Require-Interaction", silent: "X-Silent" } as const;
  for (const [field, header] of Object.entries(flags) as Array<[keyof typeof flags, string]>) {
    const value = flagHeader(headers, FULL_HEADERS[field], header);
    if (value !== undefined) fields[field] = value;
  }
  const appBadge = firstHeader(headers, FULL_HEADERS.appBadge);
  // A number the schema then bounds; anything else goes as text, which it refuses (`app_badge_invalid`).
  if (appBadge !== undefined) fields.appBadge = /^\d{1,15}$/.test(appBadge) ? Number(appBadge) : appBadge;
  const data = firstHeader(headers, FULL_HEADERS.data);
  if (data !== undefined) {
    try {
      fields.data = JSON.parse(data) as unknown;
    } catch {
      throw apiError("data_invalid", "X-Data");
    }
  }
  return fields;
}
const SEGMENT_HEADER = "x-segment";

/** `X-User: ana, bia` or the header repeated (Node joins repeats with ", "): each id trimmed, blanks dropped. */
function userHeader(value: string | string[] | undefined): string[] {
  const joined = headerText(value);
  if (joined === undefined) return [];
  return joined
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
}

function toRequest(
  text: string,
  headers: FastifyRequest["headers"],
  people: readonly string[],
  segment: string | undefined,
): Omit<PublishRequest, "urgency" | "ttl" | "audience" | "category"> & {
  urgency: string;
  ttl: number;
  category?: string;
  audience: { type: "all" } | { type: "users"; users: string[] } | { type: "segment"; segment: string };
} {
  const message = text.replace(/\r\n/g, "\n").trim();
  const title = firstHeader(headers, TITLE_HEADERS);
  const link = firstHeader(headers, ["click", "x-click", "x-link", "link"]);
  const category = firstHeader(headers, ["x-category", "category"]);
  let urgency: string = "normal";
  const urgencyHeader = firstHeader(headers, ["urgency", "x-urgency"]);
  const priority = firstHeader(headers, ["x-priority", "priority", "prio", "p"]);
  if (urgencyHeader !== undefined) urgency = urgencyHeader.toLowerCase();
  else if (priority !== undefined) urgency = PRIORITY_URGENCY[priority.toLowerCase()] ?? priority;
  // Without a title, a short one-line message is the title itself (a notification needs one).
  const oneLine = !message.includes("\n") && [...message].length <= NOTIFICATION_LIMITS.title;
  const useAsTitle = title === undefined && oneLine;
  return {
    title: title ?? (useAsTitle ? message : firstWords(message)),
    ...(useAsTitle || message === "" ? {} : { body: message }),
    ...(link === undefined ? {} : { url: link }),
    urgency: (NOTIFICATION_URGENCIES as readonly string[]).includes(urgency) ? (urgency as NotificationUrgency) : urgency,
    ttl: DEFAULT_NOTIFICATION_TTL,
    ...(category === undefined ? {} : { category: category.toLowerCase() }),
    audience: people.length > 0 ? { type: "users", users: [...people] } : segment !== undefined ? { type: "segment", segment } : { type: "all" },
  };
}

/** The start of a long message as its title, cut at a word with an ellipsis. */
function firstWords(message: string): string {
  const firstLine = message.split("\n", 1)[0] ?? "";
  const max = NOTIFICATION_LIMITS.title;
  if ([...firstLine].length <= max) return firstLine;
  const cut = [...firstLine].slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
