import { createReadStream, existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { IMPORT_FORMATS, type ImportFormat, type ImportSummary } from "../shared/api/import.js";
import type { Config } from "../server/config.js";
import type { Translator } from "../server/i18n.js";
import { ImportError } from "../server/import/import-error.js";
import { resolveImportSite } from "../server/import/import-site.js";
import { runImport, type ImportProgress } from "../server/import/run-import.js";
import { createDatabase } from "../store/database.js";
import { migrateToLatest } from "../store/migrate.js";
import { createSitesRepository } from "../store/sites-repository.js";
import { createSubscriptionImportRepository } from "../store/subscription-import-repository.js";
import type { CliIo } from "./main.js";

export interface ImportOptions {
  readonly site?: string;
  readonly format?: string;
  readonly channelsFromTags?: boolean;
  readonly dryRun?: boolean;
}

type ImportConfig = Pick<Config, "databaseUrl" | "databaseSchema" | "endpointPolicy" | "maxChannelsPerSubscription" | "importMaxBytes" | "sites">;

/** How often the progress line is redrawn at most. */
const PROGRESS_EVERY_MS = 200;
const BAR_WIDTH = 24;

/**
 * `sino import FILE`: streams the file into the database this Sino is configured with (as `sino
 * start` would store a browser's registration, checks included), with a progress bar on a
 * terminal and a summary at the end. Exit code 0 when it ran (refused rows are in the summary),
 * 1 when the whole file was refused.
 */
export async function importCommand(file: string, options: ImportOptions, config: ImportConfig, io: CliIo, translator: Translator): Promise<number> {
  const { t } = translator;
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) {
    io.stderr(`${t("cli:failed", { message: t("import:cli.notFound", { path }) })}\n`);
    return 1;
  }
  if (options.format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(options.format)) {
    io.stderr(`${t("cli:failed", { message: t("errors:import_format_unknown") })}\n`);
    return 1;
  }
  const database = createDatabase({ url: config.databaseUrl, poolSize: 2, schema: config.databaseSchema });
  const size = statSync(path).size;
  let read = 0;
  const progress = io.stderrIsTty === true ? progressLine(io, translator, size) : undefined;
  try {
    await migrateToLatest(database);
    const site = await resolveImportSite(createSitesRepository(database), options.site, config.sites.maxSubscriptionsPerSite);
    const summary = await runImport(
      {
        repository: createSubscriptionImportRepository(database),
        endpointPolicy: config.endpointPolicy,
        maxChannelsPerSubscription: config.maxChannelsPerSubscription,
        maxBytes: config.importMaxBytes,
        now: Date.now,
      },
      {
        source: counted(createReadStream(path, { highWaterMark: 256 * 1024 }), (bytes) => (read += bytes)),
        site,
        format: options.format as ImportFormat | undefined,
        channelsFromTags: options.channelsFromTags === true,
        dryRun: options.dryRun === true,
        ...(progress === undefined ? {} : { onProgress: (state: ImportProgress) => progress.update(state.rows, read) }),
      },
    );
    progress?.finish();
    io.stdout(formatSummary(summary, translator));
    return 0;
  } catch (error) {
    progress?.finish();
    if (!(error instanceof ImportError)) throw error;
    io.stderr(`${t("cli:failed", { message: t(`errors:${error.code}`) })}\n`);
    return 1;
  } finally {
    await database.destroy();
  }
}

async function* counted(source: AsyncIterable<Buffer>, onBytes: (bytes: number) => void): AsyncGenerator<Buffer> {
  for await (const chunk of source) {
    onBytes(chunk.length);
    yield chunk;
  }
}

/** One line on stderr, redrawn in place (`\r`): a bar by bytes read, rows, rows per second. */
function progressLine(io: CliIo, { t }: Translator, size: number) {
  const started = performance.now();
  let drawn = 0;
  let shown = false;
  const number = new Intl.NumberFormat("pt-BR");
  return {
    update(rows: number, bytes: number) {
      const at = performance.now();
      if (at - drawn < PROGRESS_EVERY_MS) return;
      drawn = at;
      shown = true;
      const fraction = size === 0 ? 1 : Math.min(1, bytes / size);
      const filled = Math.round(fraction * BAR_WIDTH);
      const rate = Math.round((rows * 1000) / Math.max(1, at - started));
      const text = t("import:cli.progress", { percent: Math.floor(fraction * 100), rows: number.format(rows), rate: number.format(rate) });
      io.stderr(`\r[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${text}\u001b[K`);
    },
    finish() {
      if (shown) io.stderr("\n");
    },
  };
}

/** The summary as the terminal shows it; refusals with their pt-BR reason and first lines. */
export function formatSummary(summary: ImportSummary, { t }: Translator): string {
  const number = new Intl.NumberFormat("pt-BR");
  const lines = [
    t(summary.dryRun ? "import:summary.dryRun" : "import:summary.done", { format: summary.format }),
    t("import:summary.rows", { count: number.format(summary.rows) }),
    t(summary.dryRun ? "import:summary.wouldImport" : "import:summary.imported", { count: number.format(summary.imported) }),
    t("import:summary.existing", { count: number.format(summary.existing) }),
    t("import:summary.refused", { count: number.format(summary.refused) }),
  ];
  for (const refusal of summary.refusals) {
    const listed = refusal.lines.join(", ");
    const more = refusal.count - refusal.lines.length;
    lines.push(
      t("import:summary.refusal", {
        count: number.format(refusal.count),
        code: refusal.code,
        message: t(`errors:${refusal.code}`),
        lines: more > 0 ? t("import:summary.moreLines", { lines: listed, count: number.format(more) }) : listed,
      }),
    );
  }
  lines.push(t("import:summary.speed", { rate: number.format(summary.rowsPerSecond), seconds: (summary.durationMs / 1000).toLocaleString("pt-BR", { maximumFractionDigits: 1 }) }));
  return `${lines.join("\n")}\n`;
}
