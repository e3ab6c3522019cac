import { pipeline, Readable } from "node:stream";
import { parse, type CsvError, type Info } from "csv-parse";
import { ImportError } from "./import-error.js";
import { columnFields, hasKeyColumns, ONESIGNAL_COLUMNS, rowOfRecord, type RawRow } from "./raw-row.js";

/** A CSV record longer than this is refused (csv-parse stops buffering it): a row is < 2 KiB. */
const MAX_RECORD_BYTES = 64 * 1024;

/** What the header line says: the delimiter, and whether it is OneSignal's export. */
export interface CsvHeader {
  readonly delimiter: string;
  readonly oneSignal: boolean;
}

/**
 * Reads the delimiter off the first line: `;` (what spreadsheets write in pt-BR, where the comma
 * is the decimal separator) or a tab when the line has them and no comma; else `,`.
 */
export function readCsvHeader(firstLine: string): CsvHeader {
  const count = (c: string) => firstLine.split(c).length - 1;
  const delimiter = count(",") > 0 ? "," : count(";") > 0 ? ";" : count("\t") > 0 ? "\t" : ",";
  const names = firstLine.split(delimiter).map((name) => name.trim().replace(/^"|"$/g, "").toLowerCase());
  return { delimiter, oneSignal: names.some((name) => ONESIGNAL_COLUMNS.has(name)) };
}

/**
 * The rows of a CSV with a header, streamed through csv-parse (quoting, escaped quotes, line
 * breaks inside quotes, BOM): a record that does not parse (a broken quote, a wrong number of
 * cells) is a refused row at its line, and parsing goes on.
 */
export async function* csvRows(bytes: AsyncIterable<Buffer>, header: CsvHeader): AsyncGenerator<RawRow> {
  const skipped: RawRow[] = [];
  // pipeline(), not pipe(): a failing source (the size limit, a broken gzip) must fail the parser
  // too, or the loop below would wait for records forever.
  const parser = pipeline(
    Readable.from(bytes),
    parse({
      delimiter: header.delimiter,
      bom: true,
      info: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      max_record_size: MAX_RECORD_BYTES,
      on_skip: (error: CsvError | undefined) => {
        const line = (error as { lines?: unknown } | undefined)?.lines;
        skipped.push({ line: typeof line === "number" ? line : 0, unreadable: true });
        return undefined;
      },
    }),
    () => undefined,
  );
  let fields: ReturnType<typeof columnFields> | undefined;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
    yield* skipped.splice(0);
    if (fields === undefined) {
      if (!hasKeyColumns(record)) throw new ImportError("import_columns_missing");
      fields = columnFields(record);
      continue;
    }
    // `lines` counts up to the record's end; a record spans more than one line only with a quoted line break.
    yield rowOfRecord(info.lines, record, fields);
  }
  yield* skipped.splice(0);
  if (fields === undefined) throw new ImportError("import_columns_missing");
}
