import { fileURLToPath } from "node:url";
import { realpathSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { AdminCreateError, adminCreate, type PasswordInput } from "./admin-create.js";
import { sendCommand, type SendOptions } from "./send.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { loadConfig } from "../server/config.js";
import { createTranslator, type Translator } from "../server/i18n.js";
import { startServer } from "../server/main.js";
import { startWorker } from "../delivery/worker-process.js";
import { createLogger } from "../server/logger.js";
import { createDatabase, dialectOf } from "../store/database.js";
import { migrateToLatest } from "../store/migrate.js";

export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Where `sino admin create` reads the password (default: the process's stdin). */
  readonly stdin?: PasswordInput["stdin"];
}

const defaultIo: CliIo = {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** The `sino` command, built fresh for each run (tests call it with their own io). */
export function createCli(io: CliIo = defaultIo, translator: Translator = createTranslator()): Command {
  const { t } = translator;
  const program = new Command("sino").description(t("cli:description"));
  localizeHelp(program, translator);
  // Throw instead of calling process.exit (inherited by the subcommands defined below), so a
  // test or an embedding keeps its process; runCli turns it into an exit code.
  program.exitOverride();

  program
    .command("start")
    .description(t("cli:commands.start"))
    .action(async () => {
      const config = loadConfig(io.env, translator);
      const server = await startServer(config);
      io.stdout(`${t("cli:started", { url: server.url })}\n`);
      // Graceful stop: finish requests in flight and close the database, then exit.
      const stop = () => {
        io.stderr(`${t("cli:stopping")}\n`);
        server.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
    });

  program
    .command("worker")
    .description(t("cli:commands.worker"))
    .action(async () => {
      const config = loadConfig(io.env, translator);
      // SQLite has one writer and no row locks: there the embedded worker of `sino start` delivers.
      if (dialectOf(config.databaseUrl) !== "postgres") throw new Error(t("cli:workerNeedsPostgres"));
      const worker = await startWorker(config, createLogger(config.logLevel));
      io.stdout(`${t("cli:workerStarted", { id: worker.engine.workerId })}\n`);
      // SIGTERM: finish the sub-batches in flight, checkpoint them, give the leases back, exit 0.
      const stop = () => {
        io.stderr(`${t("cli:stopping")}\n`);
        worker.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
    });

  program
    .command("migrate")
    .description(t("cli:commands.migrate"))
    .action(async () => {
      const config = loadConfig(io.env, translator);
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
  localizeHelp(admin, translator);
  admin
    .command("create")
    .description(t("cli:commands.adminCreate"))
    .requiredOption("--email <email>", t("cli:admin.email"))
    .requiredOption("--name <nome>", t("cli:admin.name"))
    .option("--password-stdin", t("cli:admin.passwordStdin"), false)
    // A missing or unknown option is a usage error: exit code 2, as scripts expect (help stays
    // 0), told in pt-BR instead of Commander's English.
    .configureOutput({ outputError: () => undefined })
    .exitOverride((error) => {
      if (error.exitCode === 0) throw error;
      io.stderr(`${t("cli:admin.usage")}\n`);
      throw new CommanderError(2, error.code, error.message);
    })
    .action(async (options: { email: string; name: string; passwordStdin: boolean }) => {
      const config = loadConfig(io.env, translator);
      try {
        const email = await adminCreate(config, options, { stdin: io.stdin ?? process.stdin, prompt: process.stderr }, translator);
        io.stdout(`${t("cli:admin.created", { email })}\n`);
      } catch (error) {
        if (!(error instanceof AdminCreateError)) throw error;
        if (error.message !== "") io.stderr(`${t("cli:failed", { message: error.message })}\n`);
        process.exitCode = error.exitCode;
      }
    });

  program
    .command("send")
    .description(t("cli:commands.send"))
    .usage(t("cli:send.usageLine"))
    .requiredOption("--title <título>", t("cli:send.title"))
    .option("--body <texto>", t("cli:send.body"))
    .option("--canal <canal>", t("cli:send.canal"))
    .option("--link <url>", t("cli:send.link"))
    .option("--agendar <data>", t("cli:send.agendar"))
    .option("--server <url>", t("cli:send.server"))
    .option("--token <token>", t("cli:send.token"))
    // As for admin create: a missing or unknown option is a usage error (exit code 2), in pt-BR.
    .configureOutput({ outputError: () => undefined })
    .exitOverride((error) => {
      if (error.exitCode === 0) throw error;
      io.stderr(`${t("cli:send.usage")}\n`);
      throw new CommanderError(2, error.code, error.message);
    })
    .action(async (options: SendOptions) => {
      process.exitCode = await sendCommand(options, io, translator);
    });

  const vapid = program.command("vapid").description(t("cli:commands.vapid"));
  localizeHelp(vapid, translator);
  vapid
    .command("generate")
    .description(t("cli:commands.vapidGenerate"))
    .action(() => {
      const keys = generateVapidKeys();
      io.stdout(`SINO_VAPID_PUBLIC_KEY=${keys.publicKey}\nSINO_VAPID_PRIVATE_KEY=${keys.privateKey}\n`);
    });

  return program;
}

/** Commander writes its help in English; the headings and the built-in help entries come from the catalog. */
function localizeHelp(command: Command, { t }: Translator): void {
  const titles: Record<string, string> = {
    "Usage:": t("cli:help.usage"),
    "Options:": t("cli:help.options"),
    "Commands:": t("cli:help.commands"),
    "Arguments:": t("cli:help.arguments"),
    "Global Options:": t("cli:help.globalOptions"),
  };
  command.configureHelp({ styleTitle: (title) => titles[title] ?? title });
  command.helpOption("-h, --help", t("cli:help.option"));
  command.helpCommand("help [command]", t("cli:help.command"));
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
