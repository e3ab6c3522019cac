import type { EndpointPolicy } from "../../push/endpoint-policy.js";
import { IMPORT_LISTED_LINES, type ImportFormat, type ImportRefusal, type ImportSummary } from "../../shared/api/import.js";
import type { ErrorCode } from "../../shared/errors.js";
import type { ImportOutcome, ImportRow, SubscriptionImportRepository } from "../../store/subscription-import-repository.js";
import { checkRow } from "./check-row.js";
import { csvRows, readCsvHeader } from "./csv-rows.js";
import { ImportError } from "./import-error.js";
import { concat, importBytes, peek } from "./import-source.js";
import { jsonArrayRows, ndjsonRows } from "./json-rows.js";
import type { RawRow } from "./raw-row.js";

/** Rows per transaction: large enough that a million rows take 2,000 commits, small enough to keep locks short. */
export const IMPORT_BATCH_ROWS = 500;

/** What an import needs from the process: the store, the registration's policies, the clock. */
export interface ImportDeps {
  readonly repository: SubscriptionImportRepository;
  readonly endpointPolicy: EndpointPolicy;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION. */
  readonly maxChannelsPerSubscription: number;
  /** SINO_IMPORT_MAX_BYTES: the most a file may hold, after decompression. */
  readonly maxBytes: number;
  readonly now: () => number;
}

/** The site the rows go to, with the room it has left under SINO_SITE_MAX_SUBSCRIPTIONS. */
export interface ImportSite {
  readonly id: number;
  readonly vapidKeyId: number | null;
  /** New subscriptions it may still take; undefined: no cap (Sino's own site, or no limit). */
  readonly room?: number | undefined;
}

export interface ImportProgress {
  readonly rows: number;
  readonly bytes: number;
}

export interface ImportRequest {
  /** The file's bytes, as they come (a file stream, a request body); gzip is recognised. */
  readonly source: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>;
  readonly site: ImportSite;
  /** Skips detection; the JSON format still tells NDJSON from an array by its first character. */
  readonly format?: ImportFormat | undefined;
  readonly channelsFromTags?: boolean;
  readonly dryRun?: boolean;
  /** Called after each batch (the CLI's progress bar). */
  readonly onProgress?: (progress: ImportProgress) => void;
}

/**
 * Streams the file through the checks into batched transactions: memory holds one batch and the
 * parser's buffer, whatever the file's size. Each row is refused (with its reason and line),
 * found already known, or stored whole with its channels; the summary counts every row.
 */
export async function runImport(deps: ImportDeps, request: ImportRequest): Promise<ImportSummary> {
  const started = performance.now();
  let bytes = 0;
  const source = importBytes(request.source, deps.maxBytes, (total) => (bytes = total));
  const { format, rows } = await openRows(source, request.format);
  const channels = await deps.repository.activeChannels();
  const now = deps.now();
  const checks = {
    endpointPolicy: deps.endpointPolicy,
    maxChannels: deps.maxChannelsPerSubscription,
    channels,
    channelsFromTags: request.channelsFromTags === true,
    now,
  };
  const tally = new Tally();
  let room = request.site.room;
  let batch: ImportRow[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const outcomes = await deps.repository.importBatch(batch, { siteId: request.site.id, vapidKeyId: request.site.vapidKeyId }, { now, maxNew: room, dryRun: request.dryRun === true });
    outcomes.forEach((outcome, i) => tally.outcome(outcome, batch[i]!.line));
    if (room !== undefined) room -= outcomes.filter((outcome) => outcome === "created").length;
    batch = [];
    request.onProgress?.({ rows: tally.rows, bytes });
  };
  for await (const raw of rows) {
    const checked = checkRow(raw, checks);
    if (checked.ok) batch.push(checked.row);
    else tally.refuse(checked.code, checked.line);
    if (batch.length >= IMPORT_BATCH_ROWS) await flush();
  }
  await flush();
  request.onProgress?.({ rows: tally.rows, bytes });
  const durationMs = Math.max(1, Math.round(performance.now() - started));
  return {
    format,
    siteId: String(request.site.id),
    dryRun: request.dryRun === true,
    ...tally.totals(),
    durationMs,
    rowsPerSecond: Math.round((tally.rows * 1000) / durationMs),
  };
}

/** Tells the format from the first bytes (or takes the one given) and reads the rows with it. */
async function openRows(source: AsyncIterable<Buffer>, given: ImportFormat | undefined): Promise<{ format: ImportFormat; rows: AsyncIterable<RawRow> }> {
  // Enough to hold the first line (a CSV header), however the bytes arrived.
  const { head, rest } = await peek(source, 64 * 1024, (bytes) => bytes.includes(0x0a));
  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  const first = text.trimStart()[0];
  const all = concat(head, rest);
  if (first === undefined) throw new ImportError("import_format_unknown");
  const json = first === "[" || first === "{";
  if (given === "webpush-json" || (given === undefined && json)) {
    if (!json) throw new ImportError("import_format_unknown");
    return { format: "webpush-json", rows: first === "[" ? jsonArrayRows(all) : ndjsonRows(all) };
  }
  const header = readCsvHeader(text.split(/\r?\n/, 1)[0] ?? "");
  const format = given ?? (header.oneSignal ? "onesignal-csv" : "csv");
  return { format, rows: csvRows(all, header) };
}

/** Counts per outcome, and per refusal reason its count and first lines. */
class Tally {
  rows = 0;
  private imported = 0;
  private existing = 0;
  private refused = 0;
  private readonly refusals = new Map<ErrorCode, { count: number; lines: number[] }>();

  outcome(outcome: ImportOutcome, line: number): void {
    if (outcome === "created") {
      this.rows += 1;
      this.imported += 1;
    } else if (outcome === "existing") {
      this.rows += 1;
      this.existing += 1;
    } else this.refuse(outcome === "auth_mismatch" ? "subscription_auth_mismatch" : "site_subscription_cap", line);
  }

  refuse(code: ErrorCode, line: number): void {
    this.rows += 1;
    this.refused += 1;
    let entry = this.refusals.get(code);
    if (entry === undefined) this.refusals.set(code, (entry = { count: 0, lines: [] }));
    entry.count += 1;
    if (entry.lines.length < IMPORT_LISTED_LINES) entry.lines.push(line);
  }

  totals(): { rows: number; imported: number; existing: number; refused: number; refusals: ImportRefusal[] } {
    const refusals = [...this.refusals].map(([code, { count, lines }]) => ({ code, count, lines: [...lines].sort((a, b) => a - b) }));
    refusals.sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
    return { rows: this.rows, imported: this.imported, existing: this.existing, refused: this.refused, refusals };
  }
}
