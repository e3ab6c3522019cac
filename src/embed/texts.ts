import { BELL_CATALOG } from "../client/index.js";

export type Translate = (key: string, values?: Readonly<Record<string, string | number>>) => string;

/**
 * A tiny lookup over the same pt-BR JSON the web app reads through i18next: dotted keys
 * (`bell.enable`) and `{{name}}` interpolation, which is all these texts use. i18next itself would
 * cost more than the whole bell against the embed's byte budget. An unknown key returns the key,
 * as i18next does, and the catalog test fails on it anyway.
 */
export function createTranslate(catalog: unknown = BELL_CATALOG): Translate {
  return (key, values) => {
    let node: unknown = catalog;
    for (const part of key.split(".")) {
      node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[part] : undefined;
    }
    if (typeof node !== "string") return key;
    return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (values && name in values ? String(values[name]) : match));
  };
}
