/** The Painel's pages (pt-BR URLs, as operators see and share them). */
export const PAINEL_PATHS = {
  root: "/painel",
  setup: "/painel/configuracao",
  signIn: "/painel/entrar",
  compose: "/painel/nova",
  history: "/painel/historico",
  channels: "/painel/canais",
  subscribers: "/painel/assinantes",
  users: "/painel/usuarios",
  tokens: "/painel/tokens",
} as const;
