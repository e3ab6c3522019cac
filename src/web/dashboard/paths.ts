/** The dashboard's pages (pt-BR URLs, as operators see and share them). */
export const DASHBOARD_PATHS = {
  root: "/painel",
  setup: "/painel/configuracao",
  signIn: "/painel/entrar",
  compose: "/painel/nova",
  history: "/painel/historico",
  channels: "/painel/canais",
  sites: "/painel/sites",
  subscribers: "/painel/assinantes",
  /** `/painel/pessoas/:userId`: one person (see `personPagePath`). */
  people: "/painel/pessoas",
  users: "/painel/usuarios",
  tokens: "/painel/tokens",
  webhooks: "/painel/webhooks",
  feeds: "/painel/feeds",
  /** `/painel/segmentos/:id`: one saved segment (see `segmentPagePath`). */
  segments: "/painel/segmentos",
  /** `/painel/envios/:id`: one notification's live progress (see `notificationPagePath`). */
  notifications: "/painel/envios",
  /** Modelos: saved templates, opened in compose. */
  templates: "/painel/modelos",
  /** Alterar senha: one's own, and the forced change after a temporary password. */
  password: "/painel/senha",
  organisation: "/painel/organizacao",
  /** Auditoria (admin): the operators' audit log. */
  audit: "/painel/auditoria",
} as const;

/** Envio: `/painel/envios/<id>`. */
export function notificationPagePath(id: string): string {
  return `${DASHBOARD_PATHS.notifications}/${encodeURIComponent(id)}`;
}

/** Pessoa: `/painel/pessoas/<user id>` (the id percent-encoded: it is opaque text). */
export function personPagePath(userId: string): string {
  return `${DASHBOARD_PATHS.people}/${encodeURIComponent(userId)}`;
}

/** Segmento: `/painel/segmentos/<id>`. */
export function segmentPagePath(id: string): string {
  return `${DASHBOARD_PATHS.segments}/${encodeURIComponent(id)}`;
}

/** Compose started from something: a template, a copy of a past send, or the edit of a scheduled one. */
export type ComposeSource = { template: string } | { duplicate: string } | { edit: string };

/** `/painel/nova?modelo=<id>`, `?duplicar=<id>` or `?editar=<id>`. */
export function composePath(source: ComposeSource): string {
  const [key, id] = "template" in source ? ["modelo", source.template] : "duplicate" in source ? ["duplicar", source.duplicate] : ["editar", source.edit];
  return `${DASHBOARD_PATHS.compose}?${key}=${encodeURIComponent(id)}`;
}
