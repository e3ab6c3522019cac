/** The API paths, shared by the server (which serves them) and the web app (which calls them). */
export const API_PREFIX = "/api/v1";

export const API_ROUTES = {
  /** GET: the public configuration the web app needs (`PublicConfig`). */
  config: `${API_PREFIX}/config`,
  /** POST: register (idempotent on the endpoint). DELETE with a JSON body: remove, with proof. */
  subscriptions: `${API_PREFIX}/subscriptions`,
  /** GET: `SetupStatus`. POST: create the first admin (`SetupRequest`), signed in. */
  setup: `${API_PREFIX}/setup`,
  /** GET: who is signed in. POST: sign in (`SignInRequest`). DELETE: sign out. */
  session: `${API_PREFIX}/session`,
  /** Admin: GET list, POST create; `/users/:id` PATCH and DELETE; `/users/:id/password-reset` POST. */
  users: `${API_PREFIX}/users`,
  /** Admin: GET list, POST create; `/tokens/:id` DELETE revokes. */
  tokens: `${API_PREFIX}/tokens`,
  /** PUT: replace a subscription's channel choice, with proof (`SubscriptionChannelsRequest`). */
  subscriptionChannels: `${API_PREFIX}/subscriptions/channels`,
  /** GET (signed in) list; POST (admin) create; `/channels/:id` PATCH (admin). */
  channels: `${API_PREFIX}/channels`,
  /** POST (public): the service worker reports shown/clicked/closed (`NotificationEventRequest`). */
  events: `${API_PREFIX}/events`,
  /** GET (public): Avisos, newest first (`NoticesResponse`). */
  notices: `${API_PREFIX}/notices`,
  /** GET (public): Server-Sent Events, one `notice` event per new notice. */
  noticesStream: `${API_PREFIX}/notices/stream`,
  /** GET (admin): subscribers list; `/subscribers/:id` DELETE (admin). */
  subscribers: `${API_PREFIX}/subscribers`,
  /** GET (admin): CSV of subscriber counts by channel and by browser. */
  subscribersCsv: `${API_PREFIX}/subscribers.csv`,
  /** POST (admin): import subscribers; the body is the file, streamed (`ImportQuery`, answers `ImportSummary`). */
  subscribersImport: `${API_PREFIX}/subscribers/import`,
  /** GET (signed in): chart data for Visão geral (`StatsResponse`). */
  stats: `${API_PREFIX}/stats`,
  /** POST: create a notification (now or scheduled; `Idempotency-Key`). GET: the history, paginated. */
  notifications: `${API_PREFIX}/notifications`,
  /** GET: how many subscribers a send to everyone or to some channels would reach (`AudienceSize`). */
  audience: `${API_PREFIX}/audience`,
  /** GET: Visão geral (subscribers now, recent notifications). */
  overview: `${API_PREFIX}/overview`,
  /** POST `/p/<canal>` with a text/plain body: the quick publish for scripts (`curl -d`). */
  quickPublish: "/p",
  /**
   * PUT: identify a subscription as a person (`IdentifySubscriptionRequest`, with proof and, where
   * the site verifies, the signature); DELETE: make it anonymous again (`ForgetSubscriptionRequest`).
   */
  subscriptionUser: `${API_PREFIX}/subscriptions/user`,
  /** PUT: merge visitor tags on a subscription, with proof (`VisitorTagsRequest`); never a person's tags. */
  subscriptionTags: `${API_PREFIX}/subscriptions/tags`,
  /** POST (admin): tag many people at once (`BulkTagsRequest`); `/people/:userId/tags` GET/PUT/PATCH/DELETE. */
  peopleTags: `${API_PREFIX}/people/tags`,
  /**
   * The host app's people, by their user id. GET (admin): the list (`PeopleResponse`);
   * `/people/:userId` and `/people/:userId/notifications` (admin); `/people/:userId/subscriptions`
   * PUT/DELETE links one (any API token or an admin).
   */
  people: `${API_PREFIX}/people`,
  /** GET (signed in): sites and Sino's address for the snippet; POST (admin) create; `/sites/:id` DELETE (admin). */
  sites: `${API_PREFIX}/sites`,
  /** Admin: GET list, POST create; `/webhooks/:id` GET, PATCH, DELETE; `/secret`, `/messages`, `/test`. */
  webhooks: `${API_PREFIX}/webhooks`,
  /** Admin: GET list, POST create; `/feeds/:id` GET, PATCH, DELETE; `/poll`, `/items`, `/items/:itemId/approve|dismiss`. */
  feeds: `${API_PREFIX}/feeds`,
  /**
   * Saved segments: GET (signed in) list, POST (admin) create; `/segments/:id` GET (signed in,
   * with its daily sizes and sends), PATCH and DELETE (admin).
   */
  segments: `${API_PREFIX}/segments`,
  /** POST (signed in, or any token): how many subscriptions and people a segment expression reaches now. */
  segmentsCount: `${API_PREFIX}/segments/count`,
  /** POST (admin): which conditions of a segment hold for one person or subscription. */
  segmentsExplain: `${API_PREFIX}/segments/explain`,
  /**
   * Templates (*modelos*): GET (signed in) list, POST create; `/templates/:id` GET, PATCH, DELETE
   * (any operator).
   */
  templates: `${API_PREFIX}/templates`,
  /** GET (public): the organisation's identity (`OrganisationResponse`); PUT (admin) changes it. */
  organisation: `${API_PREFIX}/organisation`,
  /** GET (public): the organisation's logo, as uploaded (PNG, JPEG or WebP). */
  organisationLogo: `${API_PREFIX}/organisation/logo`,
  /** GET: the OpenAPI 3 document, generated from the same zod schemas that validate requests. */
  openapi: `${API_PREFIX}/openapi.json`,
  /** The readable API documentation (Swagger UI, served locally). */
  docs: "/api/docs",
  /** PUT (the signed-in operator, session only): change one's own password (`ChangeOwnPasswordRequest`). */
  sessionPassword: `${API_PREFIX}/session/password`,
  /** GET (admin): the operators' audit log, filtered and paginated (`AuditResponse`). Nothing edits it. */
  audit: `${API_PREFIX}/audit`,
  /** GET (admin): the same log, same filters, as CSV. */
  auditCsv: `${API_PREFIX}/audit.csv`,
  /** POST: "Meus dados", the browser's own data with proof (`MyDataResponse`); DELETE: "Apagar meus dados". */
  subscriptionData: `${API_PREFIX}/subscriptions/data`,
  /**
   * GET (public): what Sino keeps and for how long, from the running configuration (`PrivacyResponse`).
   * Below it, admin: `/privacy/subscriptions/:subscriptionId` and `/privacy/people/:userId`: GET
   * exports (with the counts an erasure would remove), DELETE erases.
   */
  privacy: `${API_PREFIX}/privacy`,
} as const;

/**
 * Quick publish (`curl -d "…" /p/<canal>`): the channel that means everyone. Here, beside the
 * route, so the public page (which opens `/p/todos` as Avisos) reads it without zod.
 */
export const QUICK_PUBLISH_EVERYONE = "todos";

/**
 * The event name of each new notice on `API_ROUTES.noticesStream` (Server-Sent Events, data =
 * `Notice` JSON). Here, beside the route, so the public page reads it without loading the zod
 * schemas of notices.ts.
 */
export const NOTICE_STREAM_EVENT = "notice";
/** The same stream's event for a notice an operator took off Avisos: data `{"id":"12"}`; pages drop it. */
export const NOTICE_WITHDRAWN_EVENT = "notice-withdrawn";

/** `/api/v1/users/:id`. */
export function userPath(id: string): string {
  return `${API_ROUTES.users}/${encodeURIComponent(id)}`;
}

/** `/api/v1/tokens/:id`. */
export function tokenPath(id: string): string {
  return `${API_ROUTES.tokens}/${encodeURIComponent(id)}`;
}

/** `/api/v1/channels/:id`. */
export function channelPath(id: string): string {
  return `${API_ROUTES.channels}/${encodeURIComponent(id)}`;
}

/** `/api/v1/subscribers/:id`. */
export function subscriberPath(id: string): string {
  return `${API_ROUTES.subscribers}/${encodeURIComponent(id)}`;
}

/** `/api/v1/notifications/:id/results.csv`: a notification's results as CSV (signed in). */
export function notificationResultsCsvPath(id: string): string {
  return `${API_PREFIX}/notifications/${encodeURIComponent(id)}/results.csv`;
}

/** `/api/v1/notifications/:id`. */
export function notificationPath(id: string): string {
  return `${API_ROUTES.notifications}/${encodeURIComponent(id)}`;
}

/** `/api/v1/notifications/:id/cancel` (POST). */
export function notificationCancelPath(id: string): string {
  return `${notificationPath(id)}/cancel`;
}

/** `/api/v1/notifications/:id/notice`: PATCH (public / hidden), DELETE (removed from Avisos for good). */
export function notificationNoticePath(id: string): string {
  return `${notificationPath(id)}/notice`;
}

/** `/api/v1/notifications/:id/retries`: why its pushes are retried, by push service. */
export function notificationRetriesPath(id: string): string {
  return `${notificationPath(id)}/retries`;
}

/** `/api/v1/notifications/:id/events`: Server-Sent Events with the notification's progress. */
export function notificationEventsPath(id: string): string {
  return `${notificationPath(id)}/events`;
}

/** `/api/v1/sites/:id`. */
export function sitePath(id: string): string {
  return `${API_ROUTES.sites}/${encodeURIComponent(id)}`;
}

/** `/api/v1/sites/:id/identity-secret` (POST, admin): generate or replace the site's identity secret. */
export function siteIdentitySecretPath(id: string): string {
  return `${sitePath(id)}/identity-secret`;
}

/** `/api/v1/people/:userId/subscriptions` (PUT links, DELETE unlinks a subscription). */
export function personSubscriptionsPath(userId: string): string {
  return `${API_ROUTES.people}/${encodeURIComponent(userId)}/subscriptions`;
}

/** `/api/v1/notifications/:id/recipients`: what became of each push of a send. */
export function notificationRecipientsPath(id: string): string {
  return `${notificationPath(id)}/recipients`;
}

/** `/api/v1/people/:userId`: a person's devices (admin). */
export function personPath(userId: string): string {
  return `${API_ROUTES.people}/${encodeURIComponent(userId)}`;
}

/** `/api/v1/people/:userId/notifications`: the pushes that went to a person (admin). */
export function personNotificationsPath(userId: string): string {
  return `${personPath(userId)}/notifications`;
}

/** `/api/v1/webhooks/:id`. */
export function webhookPath(id: string): string {
  return `${API_ROUTES.webhooks}/${encodeURIComponent(id)}`;
}

/** `/api/v1/webhooks/:id/secret` (POST): a new signing secret. */
export function webhookSecretPath(id: string): string {
  return `${webhookPath(id)}/secret`;
}

/** `/api/v1/webhooks/:id/messages?page=`: its deliveries, newest first. */
export function webhookMessagesPath(id: string): string {
  return `${webhookPath(id)}/messages`;
}

/** `/api/v1/webhooks/:id/messages/:messageId/resend` (POST). */
export function webhookResendPath(id: string, messageId: string): string {
  return `${webhookMessagesPath(id)}/${encodeURIComponent(messageId)}/resend`;
}

/** `/api/v1/webhooks/:id/test` (POST): queues a `webhook.test` event. */
export function webhookTestPath(id: string): string {
  return `${webhookPath(id)}/test`;
}

/** `/api/v1/segments/:id`. */
export function segmentPath(id: string): string {
  return `${API_ROUTES.segments}/${encodeURIComponent(id)}`;
}

/** `/api/v1/templates/:id`. */
export function templatePath(id: string): string {
  return `${API_ROUTES.templates}/${encodeURIComponent(id)}`;
}

/** `/api/v1/feeds/:id`. */
export function feedPath(id: string): string {
  return `${API_ROUTES.feeds}/${encodeURIComponent(id)}`;
}

/** `/api/v1/feeds/:id/items?status=&page=`. */
export function feedItemsPath(id: string, query: { status?: string; page?: number } = {}): string {
  const params = new URLSearchParams();
  if (query.status !== undefined) params.set("status", query.status);
  if (query.page !== undefined && query.page > 1) params.set("page", String(query.page));
  const qs = params.toString();
  return `${feedPath(id)}/items${qs === "" ? "" : `?${qs}`}`;
}

/** `/api/v1/feeds/:id/items/:itemId/approve` or `/dismiss` (POST). */
export function feedItemDecisionPath(id: string, itemId: string, decision: "approve" | "dismiss"): string {
  return `${feedPath(id)}/items/${encodeURIComponent(itemId)}/${decision}`;
}
