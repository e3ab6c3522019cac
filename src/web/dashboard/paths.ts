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
  users: "/painel/usuarios",
  tokens: "/painel/tokens",
  webhooks: "/painel/webhooks",
  /** `/painel/envios/:id`: one notification's live progress (see `notificationPagePath`). */
  notifications: "/painel/envios",
} as const;

/** Envio: `/painel/envios/<id>`. */
export function notificationPagePath(id: string): string {
  return `${DASHBOARD_PATHS.notifications}/${encodeURIComponent(id)}`;
}
