/** COUNT(*) is BIGINT on PostgreSQL (a string or bigint) and a number on SQLite: read it as a number. */
export function toCount(value: number | string | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}
