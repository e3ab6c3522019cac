/**
 * Every error the API can answer with: a stable code and its HTTP status. The pt-BR message of
 * each code is `errors.<code>` in the i18n catalog, so the web app never copies the list by hand.
 */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  /** A text field holds a control character (U+0000, C0 or C1); see shared/api/text.ts. */
  text_control_characters: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  too_many_streams: 429,
  streams_unavailable: 503,
  internal_error: 500,
  database_unavailable: 503,

  endpoint_invalid: 400,
  endpoint_too_long: 400,
  endpoint_not_https: 400,
  endpoint_has_credentials: 400,
  endpoint_ip_literal: 400,
  endpoint_private_address: 400,
  endpoint_host_not_allowed: 400,
  p256dh_invalid: 400,
  p256dh_off_curve: 400,
  auth_invalid: 400,

  subscription_not_found: 404,
  subscription_auth_mismatch: 403,

  unauthenticated: 401,
  invalid_credentials: 401,
  /** A script's request with no credentials at all (the quick publish): says how to send a token. */
  token_missing: 401,
  /** An Authorization header that is not a known token (malformed, not Bearer, or unknown). */
  token_invalid: 401,
  token_revoked: 401,
  forbidden: 403,
  csrf_rejected: 403,
  too_many_attempts: 429,
  setup_already_done: 409,
  email_taken: 409,
  cannot_delete_self: 409,
  last_admin: 409,
  user_not_found: 404,
  token_not_found: 404,
  email_invalid: 400,
  password_too_short: 400,
  password_too_long: 400,
  password_too_common: 400,
  name_required: 400,
  name_too_long: 400,

  channel_not_found: 400,
  too_many_channels: 400,
  channel_slug_invalid: 400,
  channel_slug_reserved: 400,
  channel_slug_taken: 409,
  channel_description_too_long: 400,
  notification_not_found: 404,
  subscriber_not_found: 404,

  title_required: 400,
  /** Quick publish: neither a body nor a Title header. */
  message_required: 400,
  title_too_long: 400,
  body_too_long: 400,
  link_invalid: 400,
  urgency_invalid: 400,
  ttl_invalid: 400,
  send_at_invalid: 400,
  send_at_past: 400,
  send_at_too_far: 400,
  notification_too_large: 400,
  send_finished: 409,
  idempotency_key_invalid: 400,
  idempotency_key_reused: 422,

  site_not_found: 404,
  site_origin_invalid: 400,
  site_origin_not_https: 400,
  site_origin_has_path: 400,
  site_origin_taken: 409,
  site_built_in: 409,
  origin_not_allowed: 403,
  site_origin_mismatch: 403,
  site_rate_limited: 429,
  site_subscription_cap: 403,
  audience_site_not_found: 400,

  user_id_invalid: 400,
  user_signature_required: 403,
  user_signature_invalid: 403,
  site_identity_secret_missing: 409,
  person_not_found: 404,
  too_many_users: 400,
  user_data_invalid: 400,
  user_data_too_large: 400,
  placeholder_missing: 400,
  placeholder_not_allowed: 400,
  category_invalid: 400,
  transactional_audience: 400,
  collapse_key_invalid: 400,
  webhook_not_found: 404,
  webhook_message_not_found: 404,
  webhook_url_invalid: 400,
  webhook_url_not_https: 400,
  webhook_url_private_address: 400,
  webhook_events_invalid: 400,
  too_many_webhooks: 409,

  tag_key_invalid: 400,
  tag_value_invalid: 400,
  too_many_tags: 400,
  visitor_tags_disabled: 403,
  too_many_people: 400,
  segment_syntax: 400,
  segment_value_invalid: 400,
  segment_too_long: 400,
  segment_too_deep: 400,
  segment_too_many_conditions: 400,
  segment_list_too_long: 400,
  segment_timeout: 400,
  segment_not_found: 404,
  segment_name_invalid: 400,
  segment_name_taken: 409,
  segment_in_use: 409,
  too_many_segments: 409,
  /** An edit (PATCH /notifications/:id) of a notification that already started, finished or was cancelled. */
  send_not_scheduled: 409,
  template_not_found: 404,
  template_name_invalid: 400,
  template_name_taken: 409,
  too_many_templates: 409,
  /** A JSON body with a field its route does not take (`field` names it): request bodies are strict. */
  unknown_field: 400,
  notice_invalid: 400,
  notice_removed: 409,
  notice_not_public: 409,

  /** The current password given to change it is not the account's. */
  password_incorrect: 400,
  /** The new password is the one the account already has (a temporary one must be replaced). */
  password_unchanged: 400,
  /** The account's password is temporary (an admin's reset): only changing it, or signing out, is allowed. */
  password_change_required: 403,
  /** An admin resetting their own password: they change it instead, with the current one. */
  cannot_reset_own_password: 409,
  organisation_name_invalid: 400,
  organisation_accent_invalid: 400,
  organisation_accent_low_contrast: 400,
  organisation_logo_invalid: 400,
  organisation_logo_too_large: 400,
  organisation_logo_not_found: 404,
  /** GET /metrics without `Authorization: Bearer <SINO_METRICS_TOKEN>`, or with another token. */
  metrics_token_invalid: 401,
  /** GET /readyz: the database lacks migrations this Sino has (run `sino migrate`, or restart). */
  migrations_pending: 503,
  /** GET /readyz: a background loop of this process stopped coming round. */
  background_task_stalled: 503,
  action_label_required: 400,
  action_label_too_long: 400,
  action_link_invalid: 400,
  too_many_actions: 400,
  badge_invalid: 400,
  app_badge_invalid: 400,
  data_invalid: 400,
  data_too_large: 400,
  /** More reports/registrations waiting to be written than the server holds: retry (Retry-After). */
  write_queue_full: 503,
  // audit (issue 18): the audit log's filters.
  /** GET /audit: `actor` is not `user:<id>`, `token:<id>` or `anonymous`. */
  invalid_audit_actor: 400,
  /** GET /audit: `action` is not an action code. */
  invalid_audit_action: 400,
  /** GET /audit: `from` / `to` are not ISO 8601 date-times, or `from` is not before `to`. */
  invalid_audit_period: 400,
  // site-keys (issue 20): a VAPID key pair brought from another sender.
  /** Not web-push JSON, a PEM EC private key or a base64url private key. */
  vapid_key_unreadable: 400,
  /** Only a public key: signing needs the private key. */
  vapid_key_public_only: 400,
  /** An RSA/Ed25519 key, or EC on another curve than P-256. */
  vapid_key_not_p256: 400,
  /** The private scalar is zero, too large or not 32 bytes. */
  vapid_key_private_invalid: 400,
  /** The public key given is not a point on P-256. */
  vapid_key_off_curve: 400,
  /** The public key given does not belong to the private key. */
  vapid_key_mismatch: 400,
  /** `mode: "import"` without `key`. */
  vapid_key_missing: 400,
  // import (issue 20): importing subscribers (`sino import`, POST /subscribers/import).
  /** The file is none of the formats Sino imports (or `format` names none). */
  import_format_unknown: 400,
  /** A CSV whose header lacks the endpoint or key columns. */
  import_columns_missing: 400,
  /** The file is larger than SINO_IMPORT_MAX_BYTES (after decompression). */
  import_too_large: 413,
  /** A row: not a JSON object, or a CSV record that does not parse. */
  import_row_invalid: 400,
  /** A row: no endpoint, p256dh or auth. */
  import_field_missing: 400,
  /** A row: the old sender marks it unsubscribed (OneSignal's `invalid_identifier`). */
  import_unsubscribed: 400,
  // feeds (issue 20: the site's feed becomes push)
  feed_not_found: 404,
  feed_url_invalid: 400,
  feed_url_not_https: 400,
  feed_url_private_address: 400,
  feed_mode_invalid: 400,
  feed_interval_invalid: 400,
  too_many_feeds: 409,
  feed_item_not_found: 404,
  feed_item_not_pending: 409,
  feed_item_refused: 400,
  // privacy (issue 18, LGPD)
  /** The registration's `consent` is not { source: "bell" | "soft_prompt", text, version }. */
  consent_invalid: 400,
  // engagement (issue 18): quiet hours and a site's delivery settings.
  quiet_hours_invalid: 400,
  site_frequency_cap_invalid: 400,
  site_send_window_invalid: 400,
  site_time_zone_invalid: 400,
  // gates
  /** `exempt: true` (skip caps, windows and sleeping) is an admin's decision. */
  exempt_admin_only: 403,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** The body of every error response: `{ "error": { "code", "message" } }`, message in pt-BR. */
export interface ApiErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** The request field the error is about, when there is one (e.g. `keys.p256dh`). */
    field?: string;
    /** Where in a text the error is (0-based character offset): a segment expression's parse error. */
    position?: number;
    /** `payload_too_large` of a notification: the encrypted push's size, the most one push holds, and how much over. */
    details?: { bytes: number; max: number; over: number };
  };
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, value);
}
