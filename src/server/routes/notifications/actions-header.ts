/**
 * The quick publish's `X-Actions` header, in ntfy's "simple format" (docs.ntfy.sh/publish,
 * "Action buttons"): actions separated by `;`, each `view, <label>, <url>` with optional
 * `clear=true`-style options after it, or the same as `action=view, label=…, url=…`. A label or
 * link holding a comma or a semicolon is quoted (`view, "Sim, quero", https://…`). Only ntfy's
 * `view` (open a link) has a Web Push counterpart; `http` and `broadcast` are refused.
 */
export type ParsedActions = { readonly ok: true; readonly actions: Array<{ label: string; url: string }> } | { readonly ok: false };

const KEYS = new Set(["action", "label", "url", "clear"]);

export function parseActionsHeader(header: string): ParsedActions {
  const actions: Array<{ label: string; url: string }> = [];
  for (const item of splitQuoted(header, ";")) {
    const parts = splitQuoted(item, ",");
    if (parts.length === 0) continue;
    const named = new Map<string, string>();
    const positional: string[] = [];
    for (const part of parts) {
      const eq = part.indexOf("=");
      const key = eq > 0 ? part.slice(0, eq).trim().toLowerCase() : "";
      if (KEYS.has(key)) named.set(key, unquote(part.slice(eq + 1).trim()));
      else positional.push(unquote(part));
    }
    const kind = (named.get("action") ?? positional.shift() ?? "").toLowerCase();
    const label = named.get("label") ?? positional.shift();
    const url = named.get("url") ?? positional.shift();
    if (kind !== "view" || positional.length > 0) return { ok: false };
    // An absent label or link is left to the schema, which names what is missing.
    actions.push({ label: label ?? "", url: url ?? "" });
  }
  return { ok: true, actions };
}

/** Splits on `separator` outside double or single quotes; parts trimmed, empty ones dropped. */
function splitQuoted(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const char of text) {
    if (quote !== null) {
      if (char === quote) quote = null;
      current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      current += char;
    } else if (char === separator) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

function unquote(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed.endsWith(trimmed[0])) return trimmed.slice(1, -1);
  return trimmed;
}
