/**
 * RFC 4180 CSV: comma-separated, CRLF line ends, a field quoted when it holds a comma, quote or
 * line break (quotes doubled). A leading =, +, - or @ is prefixed with ' so a spreadsheet opening
 * the export does not run it as a formula (OWASP "CSV injection").
 */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return rows.map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
}

function field(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A CSV answer: UTF-8 with a BOM, so spreadsheet programs read the accents right. */
export const CSV_CONTENT_TYPE = "text/csv; charset=utf-8";
export const UTF8_BOM = "\uFEFF";
