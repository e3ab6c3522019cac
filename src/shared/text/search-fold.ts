/**
 * The form text is searched in: lowercase, compatibility-decomposed (NFKD) and without combining
 * marks, so "Manutenção", "MANUTENCAO" and "manutencao" are one word, as Portuguese readers type
 * them. Both databases compare the folded forms byte for byte: SQLite has no accent folding and
 * PostgreSQL's `unaccent` is an extension a self-hosted database may not have, so the folding is
 * done here, once, and stored beside the text when it is written (the search_text column of
 * notifications, person_key of subscriptions).
 *
 * Lowercasing first matters: "İ" lowercases to "i" plus a combining dot, which the mark removal
 * then drops.
 */
export function foldForSearch(text: string): string {
  return text.toLowerCase().normalize("NFKD").replace(/\p{M}+/gu, "");
}

/** The folded text a notification is searched by: its title and its body. */
export function notificationSearchText(title: string, body: string | null): string {
  return foldForSearch(body === null || body === "" ? title : `${title}\n${body}`);
}
