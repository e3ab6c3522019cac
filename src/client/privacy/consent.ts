import type { ConsentInput } from "../../shared/api/consent.js";
import { BELL_CATALOG } from "../texts/bell-catalog.js";

/** Where the visitor said yes: the bell's own button, or the soft prompt's "Ativar notificações". */
export type ConsentSource = ConsentInput["source"];

/**
 * FNV-1a (32 bits) of a text, hex: small, synchronous and stable across browsers and Node. It names
 * a version of the texts, it protects nothing (anyone can read the catalogue).
 */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** Keys in order at every depth, so the version depends on the texts, not on how the JSON was written. */
function canonical(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(",")}}`;
}

/**
 * The version of the texts a bell shows (the `bell` and `embed` namespaces of the pt-BR catalogue):
 * `pt-BR-` and a hash of them. Any change to a text the bell can show gives a new version, so a
 * consent record says exactly which wording was on screen; the same texts always give the same one.
 */
export const CONSENT_CATALOGUE_VERSION = `pt-BR-${fnv1a(canonical(BELL_CATALOG))}`;

/**
 * The consent sent with the registration that follows a "yes": the exact text the visitor saw
 * where they said it (the bell's button label; the soft prompt's title, text and button), from
 * the same catalogue every bell renders.
 */
export function consentFor(source: ConsentSource): ConsentInput {
  const { bell, embed } = BELL_CATALOG;
  const text = source === "bell" ? bell.enable : [embed.prompt.title, embed.prompt.text, embed.prompt.accept].join("\n");
  return { source, text, version: CONSENT_CATALOGUE_VERSION };
}
