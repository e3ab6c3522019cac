/** The dashboard's pages (pt-BR URLs, as operators see and share them). */
export const DASHBOARD_PATHS = {
  root: "/painel",
  setup: "/painel/configuracao",
  signIn: "/painel/entrar",
  compose: "/painel/nova",
  history: "/painel/historico",
  channels: "/painel/canais",
  subscribers: "/painel/assinantes",
  users: "/painel/usuarios",
  tokens: "/painel/tokens",
  /** `/painel/envios/:id`: one send's live progress (see `sendPath`). */
  sends: "/painel/envios",
} as const;

/** Envio: `/painel/envios/<id>`. */
export function sendPath(id: string): string {
  return `${DASHBOARD_PATHS.sends}/${encodeURIComponent(id)}`;
}
