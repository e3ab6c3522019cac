/**
 * `{{name}}` placeholders in a `users` send's title, body and link, filled per person from the
 * `data` the caller gave with that person's id. Names are letters, digits and `_`; whitespace
 * inside the braces is allowed (`{{ nome }}`).
 */
const PLACEHOLDER = /\{\{\s*([\p{L}\p{N}_]+)\s*\}\}/gu;

/** A person's placeholder values as the API takes them. */
export type PersonData = Readonly<Record<string, string | number | boolean>>;

/** The placeholder names in `template`, each once, in order of appearance. */
export function placeholderNames(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(PLACEHOLDER), (m) => m[1]!))];
}

export function hasPlaceholders(template: string | null | undefined): boolean {
  return template !== null && template !== undefined && placeholderNames(template).length > 0;
}

/**
 * `template` with every placeholder replaced by its value (`escape` applied: `encodeURIComponent`
 * for a link), or the first name with no value.
 */
export function fillPlaceholders(
  template: string,
  data: PersonData | null | undefined,
  escape: (value: string) => string = (value) => value,
): { readonly ok: true; readonly text: string } | { readonly ok: false; readonly missing: string } {
  let missing: string | undefined;
  const text = template.replace(PLACEHOLDER, (match, name: string) => {
    const value = data === null || data === undefined || !Object.hasOwn(data, name) ? undefined : data[name];
    if (value === undefined) {
      missing ??= name;
      return match;
    }
    return escape(String(value));
  });
  return missing === undefined ? { ok: true, text } : { ok: false, missing };
}
