/**
 * The fields a PATCH body gave: an absent (undefined) field leaves the stored value as it is, so
 * it must not reach the repository as a key at all.
 */
export function changedFields<Fields extends Record<string, unknown>>(fields: Fields): { [K in keyof Fields]?: Exclude<Fields[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as { [K in keyof Fields]?: Exclude<Fields[K], undefined> };
}

/** An optional text the Painel clears by sending it empty: stored as null. */
export function emptyToNull(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === "" ? null : value;
}

/** The same for a PATCH: absent stays absent (undefined), empty clears (null). */
export function emptyToNullIfGiven(value: string | null | undefined): string | null | undefined {
  return value === undefined ? undefined : emptyToNull(value);
}
