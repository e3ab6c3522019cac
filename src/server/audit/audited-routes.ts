import { API_PREFIX, API_ROUTES } from "../../shared/api/routes.js";

/**
 * What the audit log records, route by route: `"<METHOD> <route pattern>"` (the pattern as the
 * route was registered, `:id` and all) → the action's stable code. A route missing here is not
 * audited. The hook (audit-hook.ts) records an entry when such a request succeeds (2xx), and for
 * sign-in also when it is refused; adding an operator route is one line here.
 *
 * Targets: by default the `:id` path parameter, else the `id` of the object the answer created
 * (`{ "user": { "id": "7" } }`). `target: "none"` where the only id would be a subscriber's or a
 * person's own (personal data stays out of the log). Never a body, never a secret.
 */
export interface AuditedRoute {
  /** The action's code, or one chosen from the request body (the exempt send). */
  readonly action: string | ((body: unknown) => string);
  readonly target?: "default" | "none";
}

const byId = (base: string) => `${base}/:id`;
const people = `${API_ROUTES.people}/:userId`;

/** `exempt: true` (an admin's override of caps, windows and sleeping) is its own action. */
const send = (body: unknown): string =>
  typeof body === "object" && body !== null && (body as { exempt?: unknown }).exempt === true ? "notification.send_exempt" : "notification.send";

export const AUDITED_ROUTES: Readonly<Record<string, AuditedRoute>> = {
  // Access
  [`POST ${API_ROUTES.session}`]: { action: "session.sign_in" },
  [`DELETE ${API_ROUTES.session}`]: { action: "session.sign_out" },
  [`PUT ${API_ROUTES.sessionPassword}`]: { action: "session.password_change" },
  [`POST ${API_ROUTES.setup}`]: { action: "setup.first_admin" },
  // Users and tokens
  [`POST ${API_ROUTES.users}`]: { action: "user.create" },
  [`PATCH ${byId(API_ROUTES.users)}`]: { action: "user.update" },
  [`POST ${byId(API_ROUTES.users)}/password-reset`]: { action: "user.password_reset" },
  [`DELETE ${byId(API_ROUTES.users)}`]: { action: "user.delete" },
  [`POST ${API_ROUTES.tokens}`]: { action: "token.create" },
  [`DELETE ${byId(API_ROUTES.tokens)}`]: { action: "token.revoke" },
  // Sites, organisation, channels
  [`POST ${API_ROUTES.sites}`]: { action: "site.create" },
  [`PATCH ${byId(API_ROUTES.sites)}`]: { action: "site.update" },
  [`DELETE ${byId(API_ROUTES.sites)}`]: { action: "site.delete" },
  [`POST ${byId(API_ROUTES.sites)}/identity-secret`]: { action: "site.identity_secret" },
  [`PUT ${byId(API_ROUTES.sites)}/vapid-key`]: { action: "site.vapid_key" },
  [`PUT ${API_ROUTES.organisation}`]: { action: "organisation.update" },
  [`POST ${API_ROUTES.channels}`]: { action: "channel.create" },
  [`PATCH ${byId(API_ROUTES.channels)}`]: { action: "channel.update" },
  // Sends
  [`POST ${API_ROUTES.notifications}`]: { action: send },
  [`POST ${API_ROUTES.quickPublish}/:channel`]: { action: "notification.quick_publish" },
  [`PATCH ${byId(API_ROUTES.notifications)}`]: { action: "notification.update" },
  [`POST ${byId(API_ROUTES.notifications)}/cancel`]: { action: "notification.cancel" },
  [`PATCH ${byId(API_ROUTES.notifications)}/notice`]: { action: "notice.update" },
  [`DELETE ${byId(API_ROUTES.notifications)}/notice`]: { action: "notice.delete" },
  // Subscribers and people (their ids are personal data: not in the log)
  [`DELETE ${byId(API_ROUTES.subscribers)}`]: { action: "subscriber.delete", target: "none" },
  [`PUT ${people}/tags`]: { action: "person.tags_replace", target: "none" },
  [`PATCH ${people}/tags`]: { action: "person.tags_update", target: "none" },
  [`DELETE ${people}/tags`]: { action: "person.tags_clear", target: "none" },
  [`DELETE ${people}/tags/:key`]: { action: "person.tag_delete", target: "none" },
  [`POST ${API_ROUTES.peopleTags}`]: { action: "person.bulk_tag", target: "none" },
  [`POST ${API_ROUTES.subscribersImport}`]: { action: "subscriber.import" },
  // Personal data (LGPD): the operator's export and erasure, by subscription or by person
  [`GET ${API_ROUTES.privacy}/subscriptions/:subscriptionId`]: { action: "personal_data.subscription_export", target: "none" },
  [`DELETE ${API_ROUTES.privacy}/subscriptions/:subscriptionId`]: { action: "personal_data.subscription_erase", target: "none" },
  [`GET ${API_ROUTES.privacy}/people/:userId`]: { action: "personal_data.person_export", target: "none" },
  [`DELETE ${API_ROUTES.privacy}/people/:userId`]: { action: "personal_data.person_erase", target: "none" },
  // Exports
  [`GET ${API_ROUTES.subscribersCsv}`]: { action: "subscriber.export" },
  [`GET ${API_PREFIX}/notifications/:id/results.csv`]: { action: "notification.results_export" },
  [`GET ${API_ROUTES.auditCsv}`]: { action: "audit_log.export" },
  // Webhooks
  [`POST ${API_ROUTES.webhooks}`]: { action: "webhook.create" },
  [`PATCH ${byId(API_ROUTES.webhooks)}`]: { action: "webhook.update" },
  [`DELETE ${byId(API_ROUTES.webhooks)}`]: { action: "webhook.delete" },
  [`POST ${byId(API_ROUTES.webhooks)}/secret`]: { action: "webhook.secret" },
  [`POST ${byId(API_ROUTES.webhooks)}/messages/:messageId/resend`]: { action: "webhook.resend" },
  [`POST ${byId(API_ROUTES.webhooks)}/test`]: { action: "webhook.test" },
  // Templates and segments
  [`POST ${API_ROUTES.templates}`]: { action: "template.create" },
  [`PATCH ${byId(API_ROUTES.templates)}`]: { action: "template.update" },
  [`DELETE ${byId(API_ROUTES.templates)}`]: { action: "template.delete" },
  [`POST ${API_ROUTES.segments}`]: { action: "segment.create" },
  [`PATCH ${byId(API_ROUTES.segments)}`]: { action: "segment.update" },
  [`DELETE ${byId(API_ROUTES.segments)}`]: { action: "segment.delete" },
  // Feeds
  [`POST ${API_ROUTES.feeds}`]: { action: "feed.create" },
  [`PATCH ${byId(API_ROUTES.feeds)}`]: { action: "feed.update" },
  [`DELETE ${byId(API_ROUTES.feeds)}`]: { action: "feed.delete" },
  [`POST ${byId(API_ROUTES.feeds)}/poll`]: { action: "feed.poll" },
  [`POST ${byId(API_ROUTES.feeds)}/items/:itemId/approve`]: { action: "feed.item_approve" },
  [`POST ${byId(API_ROUTES.feeds)}/items/:itemId/dismiss`]: { action: "feed.item_dismiss" },
};

/** A sign-in refused (wrong password, unknown address, throttled) is recorded under this code. */
export const SIGN_IN_FAILED = "session.sign_in_failed";

/** Every action code the table can record (the Painel's filter and labels). */
export const AUDIT_ACTIONS: readonly string[] = [
  ...new Set([
    ...Object.values(AUDITED_ROUTES).flatMap((r) => (typeof r.action === "string" ? [r.action] : [])),
    "notification.send",
    "notification.send_exempt",
    SIGN_IN_FAILED,
  ]),
].sort();
