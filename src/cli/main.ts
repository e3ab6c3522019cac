import { fileURLToPath } from "node:url";
import { realpathSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { AdminCreateError, adminCreate, type PasswordInput } from "./admin-create.js";
import { backupCommand, restoreCommand } from "./backup.js";
import { localizeCommander } from "./localize-commander.js";
import type { ApiTarget } from "./api-call.js";
import { auditCommand, type AuditOptions } from "./audit.js";
import { segmentsCountCommand, segmentsCreateCommand, segmentsListCommand } from "./segments.js";
import { templatesListCommand } from "./templates.js";
import { sendCommand, type SendOptions } from "./send.js";
import { sendStatusCommand } from "./send-status.js";
import { tagsCommand, type TagsOptions } from "./tags.js";
import { usersListCommand, usersResetPasswordCommand } from "./users.js";
import { keysSetCommand, keysShowCommand } from "./keys.js";
import { importCommand, type ImportOptions } from "./import.js";
import { privacyEraseCommand, privacyExportCommand, type PrivacyTargetOptions } from "./privacy.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { loadConfig } from "../server/config.js";
import { createTranslator, type Translator } from "../server/i18n.js";
import { startServer } from "../server/main.js";
import { startHealthServer } from "../server/health/health-server.js";
import { createLiveness } from "../server/health/liveness.js";
import { createReadinessCheck } from "../server/health/readiness.js";
import { startWorker } from "../delivery/worker-process.js";
import { createMetrics } from "../server/metrics/metrics.js";
import { exposeProcessMetrics } from "../server/metrics/process-metrics.js";
import { boundHeapForDelivery } from "../delivery/heap-bounds.js";
import { createLogger } from "../server/logger.js";
import { createDatabase, dialectOf } from "../store/database.js";
import { migrateToLatest } from "../store/migrate.js";

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Where `sino admin create` reads the password (default: the process's stdin). */
  readonly stdin?: PasswordInput["stdin"];
  /** Whether stderr is a terminal (`sino import` then draws its progress bar there). */
  readonly stderrIsTty?: boolean;
}

const defaultIo: CliIo = {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTty: process.stderr.isTTY === true,
};

/** The `sino` command, built fresh for each run (tests call it with their own io). */
export function createCli(io: CliIo = defaultIo, translator: Translator = createTranslator()): Command {
  const { t } = translator;
  const program = new Command("sino").description(t("cli:description"));
  const readConfig = () => loadConfig(io.env, translator);
  /** SIGTERM or SIGINT: say so, `close` (it finishes what is in flight), then exit 0, or 1 if closing failed. */
  const stopOnSignal = (close: () => Promise<unknown>) => {
    const stop = () => {
      io.stderr(`${t("cli:stopping")}\n`);
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  };
  /** `--server` and `--token`: where a command that goes through the HTTP API sends its calls. */
  const apiTarget = (command: Command, tokenHelp: string) => command.option("--server <url>", t("cli:send.server")).option("--token <token>", tokenHelp);

  program
    .command("start")
    .description(t("cli:commands.start"))
    .action(async () => {
      const config = readConfig();
      // With its embedded lanes `sino start` delivers like a worker: the same heap sizing.
      if (config.delivery.embedded) boundHeapForDelivery();
      const server = await startServer(config);
      io.stdout(`${t("cli:started", { url: server.url })}\n`);
      // Graceful stop: finish requests in flight and close the database, then exit.
      stopOnSignal(() => server.close());
    });

  program
    .command("worker")
    .description(t("cli:commands.worker"))
    .action(async () => {
      const config = readConfig();
      // SQLite has one writer and no row locks: there the embedded worker of `sino start` delivers.
      if (dialectOf(config.databaseUrl) !== "postgres") throw new Error(t("cli:workerNeedsPostgres"));
      boundHeapForDelivery();
      const logger = createLogger(config.logLevel);
      const liveness = createLiveness();
      const metrics = createMetrics();
      const worker = await startWorker(config, logger, { liveness }, metrics);
      // A worker has no HTTP server: its metrics need a listener of their own.
      const metricsListener = await exposeProcessMetrics({ metrics, config: config.metrics, database: worker.database, delivery: worker, liveness, translator, logger }).catch(
        async (error: unknown) => {
          await worker.close();
          throw error;
        },
      );
      if (metricsListener === undefined && config.metrics.token !== undefined) logger.warn({}, "SINO_METRICS_TOKEN is set but a worker serves metrics only on SINO_METRICS_LISTEN");
      // No HTTP server of its own: the probes answer on SINO_WORKER_HEALTH_PORT when it is set.
      const health =
        config.workerHealthPort === undefined
          ? undefined
          : await startHealthServer({
              host: config.host,
              port: config.workerHealthPort,
              check: createReadinessCheck({ database: worker.database, liveness }),
              translator,
              logger,
            }).catch(async (error: unknown) => {
              await Promise.all([metricsListener?.close(), worker.close()]);
              throw error;
            });
      io.stdout(`${t("cli:workerStarted", { id: worker.engine.workerId })}\n`);
      if (health !== undefined) logger.info({ url: health.url }, "health probes listening");
      // SIGTERM: finish the sub-batches in flight, checkpoint them, give the leases back, exit 0.
      stopOnSignal(() => Promise.all([metricsListener?.close(), health?.close()]).then(() => worker.close()));
    });

  program
    .command("migrate")
    .description(t("cli:commands.migrate"))
    .action(async () => {
      const config = readConfig();
      const database = createDatabase({ url: config.databaseUrl, poolSize: 1, schema: config.databaseSchema });
      try {
        const applied = await migrateToLatest(database);
        io.stdout(
          `${applied.length === 0 ? t("cli:migratedNone") : t("cli:migrated", { count: applied.length })}\n`,
        );
      } finally {
        await database.destroy();
      }
    });

  const admin = program.command("admin").description(t("cli:commands.admin"));
  admin
    .command("create")
    .description(t("cli:commands.adminCreate"))
    .usage(t("cli:admin.usageLine"))
    .requiredOption("--email <e-mail>", t("cli:admin.email"))
    .requiredOption("--name <nome>", t("cli:admin.name"))
    .option("--password-stdin", t("cli:admin.passwordStdin"), false)
    .action(async (options: { email: string; name: string; passwordStdin: boolean }) => {
      const config = readConfig();
      try {
        const email = await adminCreate(config, options, { stdin: io.stdin ?? process.stdin, prompt: process.stderr }, translator);
        io.stdout(`${t("cli:admin.created", { email })}\n`);
      } catch (error) {
        if (!(error instanceof AdminCreateError)) throw error;
        if (error.message !== "") io.stderr(`${t("cli:failed", { message: error.message })}\n`);
        process.exitCode = error.exitCode;
      }
    });

  const users = program.command("users").description(t("cli:commands.users"));
  users
    .command("list")
    .description(t("cli:commands.usersList"))
    .action(async () => {
      process.exitCode = await usersListCommand(readConfig(), io, translator);
    });
  users
    .command("reset-password")
    .description(t("cli:commands.usersResetPassword"))
    .argument("<e-mail>", t("cli:users.email"))
    .action(async (email: string) => {
      process.exitCode = await usersResetPasswordCommand(email, readConfig(), io, translator);
    });

  const privacy = program.command("privacy").description(t("privacy:cli.command"));
  /** Whose data: a person of the host app (`--user`) or one browser (`--subscription`). */
  const privacyCommand = (name: string, description: string) =>
    privacy.command(name).description(description).option("--user <id>", t("privacy:cli.user")).option("--subscription <número>", t("privacy:cli.subscription"));
  privacyCommand("export", t("privacy:cli.exportCommand"))
    .action(async (options: PrivacyTargetOptions) => {
      process.exitCode = await privacyExportCommand(options, readConfig(), io, translator);
    });
  privacyCommand("erase", t("privacy:cli.eraseCommand"))
    .option("--yes", t("privacy:cli.yes"), false)
    .action(async (options: PrivacyTargetOptions & { yes: boolean }) => {
      process.exitCode = await privacyEraseCommand(options, readConfig(), io, translator);
    });

  /** An option given more than once keeps every value, in order. */
  const repeatable = (value: string, previous: string[] = []) => [...previous, value];
  program
    .command("send")
    .description(t("cli:commands.send"))
    .usage(t("cli:send.usageLine"))
    .option("--title <título>", t("cli:send.title"))
    .option("--template <nome>", t("cli:send.template"))
    .option("--body <texto>", t("cli:send.body"))
    .option("--channel <canal>", t("cli:send.channel"))
    .option("--site <id>", t("cli:send.site"))
    .option("--user <id>", t("cli:send.user"), repeatable)
    .option("--segment <id|nome>", t("cli:send.segment"))
    .option("--segment-expr <expressão>", t("cli:send.segmentExpr"))
    .option("--category <categoria>", t("cli:send.category"))
    .option("--link <url>", t("cli:send.link"))
    .option("--schedule <data>", t("cli:send.schedule"))
    .option("--no-notice", t("cli:send.noNotice"))
    .option("--action <rótulo=url>", t("cli:send.action"), repeatable)
    .option("--tag <chave>", t("cli:send.tag"))
    .option("--renotify", t("cli:send.renotify"))
    .option("--require-interaction", t("cli:send.requireInteraction"))
    .option("--silent", t("cli:send.silent"))
    .option("--badge <url>", t("cli:send.badge"))
    .option("--app-badge <número>", t("cli:send.appBadge"))
    .option("--data <json>", t("cli:send.data"))
    .option("--exempt", t("delivery-rules:cli.exemptOption"))
    .option("--reengagement", t("delivery-rules:cli.reengagementOption"))
    .option("--server <url>", t("cli:send.server"))
    .option("--token <token>", t("cli:send.token"))
    // Flags are English like the code; the Portuguese spellings of the first version still work.
    .addOption(new Option("--canal <canal>").hideHelp())
    .addOption(new Option("--agendar <data>").hideHelp())
    .action(async ({ canal, agendar, ...options }: SendOptions & { canal?: string; agendar?: string }) => {
      const channel = options.channel ?? canal;
      const schedule = options.schedule ?? agendar;
      const merged = { ...options, ...(channel === undefined ? {} : { channel }), ...(schedule === undefined ? {} : { schedule }) };
      process.exitCode = await sendCommand(merged, io, translator);
    });

  apiTarget(program.command("status").description(t("local-time:cli.description")).argument("<id>", t("local-time:cli.id")), t("cli:send.token")).action(
    async (id: string, options: ApiTarget) => {
      process.exitCode = await sendStatusCommand(id, options, io, translator);
    },
  );

  const tags = program.command("tags").description(t("cli:commands.tags"));
  const tagsConnection = (command: Command) => apiTarget(command, t("cli:tags.token"));
  tagsConnection(tags.command("show").description(t("cli:commands.tagsShow")).argument("<userId>", t("cli:tags.userId"))).action(
    async (userId: string, options: TagsOptions) => {
      process.exitCode = await tagsCommand(userId, { kind: "show" }, options, io, translator);
    },
  );
  tagsConnection(
    tags.command("set").description(t("cli:commands.tagsSet")).argument("<userId>", t("cli:tags.userId")).argument("<etiquetas...>", t("cli:tags.tags")),
  ).action(async (userId: string, list: string[], options: TagsOptions) => {
    process.exitCode = await tagsCommand(userId, { kind: "set", tags: list }, options, io, translator);
  });
  tagsConnection(
    tags.command("rm").description(t("cli:commands.tagsRm")).argument("<userId>", t("cli:tags.userId")).argument("<chaves...>", t("cli:tags.keys")),
  ).action(async (userId: string, keys: string[], options: TagsOptions) => {
    process.exitCode = await tagsCommand(userId, { kind: "rm", keys }, options, io, translator);
  });

  const segments = program.command("segments").description(t("cli:commands.segments"));
  const apiOptions = (command: Command) => apiTarget(command, t("cli:segments.token"));
  apiOptions(segments.command("list").description(t("cli:commands.segmentsList"))).action(async (options: ApiTarget) => {
    process.exitCode = await segmentsListCommand(options, io, translator);
  });
  apiOptions(segments.command("count").description(t("cli:commands.segmentsCount")).argument("<expressão>", t("cli:segments.expression")))
    .option("--tag-kinds <tipos>", t("cli:segments.tagKinds"))
    .action(async (expression: string, options: ApiTarget & { tagKinds?: string }) => {
      process.exitCode = await segmentsCountCommand(expression, options, io, translator);
    });
  apiOptions(
    segments
      .command("create")
      .description(t("cli:commands.segmentsCreate"))
      .usage(t("cli:segments.createUsageLine"))
      .argument("<expressão>", t("cli:segments.expression"))
      .requiredOption("--name <nome>", t("cli:segments.name")),
  )
    .option("--description <texto>", t("cli:segments.description"))
    .option("--tag-kinds <tipos>", t("cli:segments.tagKinds"))
    .action(async (expression: string, options: ApiTarget & { name: string; description?: string; tagKinds?: string }) => {
      process.exitCode = await segmentsCreateCommand(expression, options, io, translator);
    });

  apiTarget(program.command("audit").description(t("audit:cli.command")), t("audit:cli.token"))
    .option("--action <ação>", t("audit:cli.action"))
    .option("--actor <autor>", t("audit:cli.actor"))
    .option("--from <instante>", t("audit:cli.from"))
    .option("--to <instante>", t("audit:cli.to"))
    .option("--limit <n>", t("audit:cli.limit"))
    .action(async (options: AuditOptions) => {
      process.exitCode = await auditCommand(options, io, translator);
    });

  const templates = program.command("templates").description(t("cli:commands.templates"));
  apiTarget(templates.command("list").description(t("cli:commands.templatesList")), t("cli:templates.token")).action(async (options: ApiTarget) => {
    process.exitCode = await templatesListCommand(options, io, translator);
  });

  // `sino backup FILE` and `sino restore FILE`: one SQLite file each way, replacing only with --force.
  const copyCommand = (name: string, texts: { description: string; file: string; force: string }, run: typeof backupCommand) =>
    program
      .command(name)
      .description(texts.description)
      .argument("<arquivo>", texts.file)
      .option("--force", texts.force, false)
      .action(async (file: string, options: { force: boolean }) => {
        process.exitCode = await run(file, options, readConfig(), io, translator);
      });
  copyCommand("backup", { description: t("cli:commands.backup"), file: t("cli:backup.file"), force: t("cli:backup.force") }, backupCommand);
  copyCommand("restore", { description: t("cli:commands.restore"), file: t("cli:restore.file"), force: t("cli:restore.force") }, restoreCommand);

  program
    .command("import")
    .description(t("import:cli.description"))
    .argument("<arquivo>", t("import:cli.file"))
    .option("--site <id|chave|origem>", t("import:cli.site"))
    .option("--format <formato>", t("import:cli.format"))
    .option("--channels-from-tags", t("import:cli.channelsFromTags"))
    .option("--dry-run", t("import:cli.dryRun"))
    .action(async (file: string, options: ImportOptions) => {
      process.exitCode = await importCommand(file, options, readConfig(), io, translator);
    });

  const vapid = program.command("vapid").description(t("cli:commands.vapid"));
  vapid
    .command("generate")
    .description(t("cli:commands.vapidGenerate"))
    .action(() => {
      const keys = generateVapidKeys();
      io.stdout(`SINO_VAPID_PUBLIC_KEY=${keys.publicKey}\nSINO_VAPID_PRIVATE_KEY=${keys.privateKey}\n`);
    });

  // `sino keys`: a site's VAPID keys (issue 20).
  const keys = program.command("keys").description(t("site-keys:cli.keys"));
  /** A `sino keys` subcommand: each names its site with the mandatory `--site`. */
  const keysCommand = (name: string, description: string) =>
    keys.command(name).description(description).addOption(new Option("--site <site>", t("site-keys:cli.siteOption")).makeOptionMandatory());
  keysCommand("show", t("site-keys:cli.show"))
    .action(async (options: { site: string }) => {
      process.exitCode = await keysShowCommand(options.site, readConfig(), io, translator);
    });
  keysCommand("generate", t("site-keys:cli.generate"))
    .action(async (options: { site: string }) => {
      process.exitCode = await keysSetCommand(options.site, { kind: "generate" }, readConfig(), io, translator);
    });
  keysCommand("default", t("site-keys:cli.default"))
    .action(async (options: { site: string }) => {
      process.exitCode = await keysSetCommand(options.site, { kind: "default" }, readConfig(), io, translator);
    });
  keysCommand("import", t("site-keys:cli.import"))
    .argument("<arquivo>", t("site-keys:cli.import"))
    .action(async (file: string, options: { site: string }) => {
      process.exitCode = await keysSetCommand(options.site, { kind: "import", file }, readConfig(), io, translator);
    });

  // pt-BR help and errors on every command; errors throw (exit code 2) instead of calling
  // process.exit, so a test or an embedding keeps its process: runCli turns them into the code.
  localizeCommander(program, translator, io.stderr);
  return program;
}

/** Runs the command line; failures print a pt-BR line (no stack trace) and set exit code 1. */
export async function runCli(argv: readonly string[], io: CliIo = defaultIo): Promise<void> {
  const translator = createTranslator();
  try {
    await createCli(io, translator).parseAsync([...argv], { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (or the help); keep its exit code.
      process.exitCode = error.exitCode;
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`${translator.t("cli:failed", { message })}\n`);
    process.exitCode = 1;
  }
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  const self = fileURLToPath(import.meta.url);
  try {
    const real = realpathSync(entry);
    // Run directly (`tsx src/cli/main.ts`) or through bin/sino.js, which only imports this module.
    return real === self || /[\\/]bin[\\/]sino(\.js)?$/.test(real);
  } catch {
    return false;
  }
}

if (isEntryPoint()) await runCli(process.argv.slice(2));
