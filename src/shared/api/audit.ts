import { z } from "zod";

/** The operators' audit log (admin): GET /audit, GET /audit.csv. Nothing edits or deletes it. */
export const AUDIT_PAGE_SIZE = 50;
export const AUDIT_MAX_PAGE_SIZE = 200;

export const auditActorKindSchema = z.enum(["user", "token", "anonymous"]);
export type AuditActorKind = z.infer<typeof auditActorKindSchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  /** ISO 8601, UTC. */
  at: z.string(),
  actor: z.object({
    kind: auditActorKindSchema,
    /** The user's or token's id; null when anonymous (a failed sign-in with an unknown address). */
    id: z.string().nullable(),
    /** The user's or token's name; for a failed sign-in, the address typed. */
    name: z.string().nullable(),
  }),
  /** A stable code (`session.sign_in`, `notification.send_exempt`, `user.delete`…). */
  action: z.string(),
  /** The id of what was acted on (a send, a user, a token…), when there is one. */
  targetId: z.string().nullable(),
  /** The HTTP status the action was answered with. */
  status: z.number().int(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const isoTime = () => z.iso.datetime({ offset: true, error: "invalid_audit_period" });

/** GET /audit?actor=&action=&from=&to=&page=&pageSize= ; `actor` is `user:<id>`, `token:<id>` or `anonymous`. */
export const auditQuerySchema = z.object({
  actor: z
    .string()
    .regex(/^(user:\d{1,15}|token:\d{1,15}|anonymous)$/, { error: "invalid_audit_actor" })
    .optional(),
  action: z
    .string()
    .regex(/^[a-z_]{1,40}(\.[a-z_]{1,40}){0,2}$/, { error: "invalid_audit_action" })
    .optional(),
  /** Inclusive lower bound. */
  from: isoTime().optional(),
  /** Exclusive upper bound. */
  to: isoTime().optional(),
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(AUDIT_MAX_PAGE_SIZE).optional(),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

/** The CSV export takes the same filters, without paging. */
export const auditExportQuerySchema = auditQuerySchema.omit({ page: true, pageSize: true });

export const auditResponseSchema = z.object({
  entries: z.array(auditEntrySchema),
  total: z.number().int(),
  /** Every action code the log knows (for the Painel's filter). */
  actions: z.array(z.string()),
});
export type AuditResponse = z.infer<typeof auditResponseSchema>;

/** GET /privacy (public): what Sino keeps and for how long, from the running configuration. */
export const privacyResponseSchema = z.object({
  /** Days a notification event (shown, clicked, closed) is kept before it becomes a daily count; null: forever. */
  eventRetentionDays: z.number().int().nullable(),
  /** Days the rows left by a removed subscription are kept; null: forever. */
  removedRetentionDays: z.number().int().nullable(),
  /** Days an operator action stays in the audit log; null: forever. */
  auditRetentionDays: z.number().int().nullable(),
  /** Days a consent record is kept after its subscription ends (proof of consent, LGPD art. 8); null: forever. */
  consentRetentionDays: z.number().int().nullable(),
  /** Days without a visit after which a subscription is removed (hygiene); null: never. */
  inactiveSubscriptionDays: z.number().int().nullable(),
  /** The organisation's name, when set. */
  organisationName: z.string().nullable(),
});
export type PrivacyResponse = z.infer<typeof privacyResponseSchema>;
