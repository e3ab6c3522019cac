import { CommanderError, Help, type Command } from "commander";
import type { Translator } from "../server/i18n.js";

/**
 * Makes everything Commander prints speak pt-BR, for a command and all its subcommands: help
 * headings, the `[options]`/`[command]` placeholders of usage lines, the help option and command,
 * and every parsing error. Commander writes its errors in English (`error: unknown command 'x'`),
 * so their English text is swallowed (`configureOutput`) and each is told again from the catalog
 * by its stable code in `exitOverride`, followed by the command's usage line. Parsing errors exit
 * with 2 (a usage error, as scripts expect); help asked for exits with 0.
 *
 * Call it once the whole command tree is built: settings given to a command before its
 * subcommands exist would be inherited by them, but not those given after.
 */
export function localizeCommander(command: Command, translator: Translator, write: (text: string) => void): void {
  const { t } = translator;
  const titles: Record<string, string> = {
    "Usage:": t("cli:help.usage"),
    "Options:": t("cli:help.options"),
    "Commands:": t("cli:help.commands"),
    "Arguments:": t("cli:help.arguments"),
    "Global Options:": t("cli:help.globalOptions"),
  };
  const placeholders = (text: string) =>
    text.replaceAll("[options]", t("cli:help.optionsPlaceholder")).replaceAll("[command]", t("cli:help.commandPlaceholder"));
  const english = new Help();

  for (const each of [command, ...descendants(command)]) {
    each.configureHelp({
      styleTitle: (title) => titles[title] ?? title,
      subcommandTerm: (sub) => placeholders(english.subcommandTerm(sub)),
    });
    each.helpOption("-h, --help", t("cli:help.option"));
    if (each.commands.length > 0) each.helpCommand(`help ${t("cli:help.commandPlaceholder")}`, t("cli:help.command"));
    each.usage(placeholders(each.usage()));
    each.configureOutput({ outputError: () => undefined });
    each.exitOverride((error) => {
      // Help or version asked for: Commander has printed it; nothing else to say.
      if (error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.version") throw error;
      // Help shown because a command needs a subcommand (`sino admin`): it was printed already.
      if (error.code !== "commander.help") {
        write(`${t("cli:failed", { message: describeError(error, translator) })}\n`);
        write(`${t("cli:help.usage")} ${fullName(each)} ${each.usage()}\n${t("cli:help.seeHelp", { command: fullName(each) })}\n`);
      }
      throw new CommanderError(2, error.code, error.message);
    });
  }
}

function descendants(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...descendants(sub)]);
}

/** `sino admin create`. */
function fullName(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at !== null; at = at.parent) names.unshift(at.name());
  return names.join(" ");
}

/**
 * The pt-BR sentence for a Commander error, by its code. The names it quotes (the option, the
 * command) are read back from Commander's message, whose wording is fixed per code.
 */
function describeError(error: CommanderError, { t }: Translator): string {
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? "";
  const similar = /\(Did you mean ([^)]*)\?\)/.exec(error.message)?.[1];
  const suggestion = similar === undefined ? "" : ` ${t("cli:errors.suggestion", { name: similar })}`;
  switch (error.code) {
    case "commander.unknownCommand":
      return t("cli:errors.unknownCommand", { name: quoted }) + suggestion;
    case "commander.unknownOption":
      return t("cli:errors.unknownOption", { name: quoted }) + suggestion;
    case "commander.missingArgument":
      return t("cli:errors.missingArgument", { name: quoted });
    case "commander.optionMissingArgument":
      return t("cli:errors.optionMissingArgument", { name: quoted });
    case "commander.missingMandatoryOptionValue":
      return t("cli:errors.missingMandatoryOption", { name: quoted });
    case "commander.excessArguments": {
      const [, expected = "0", received = "0"] = /Expected (\d+) arguments? but got (\d+)/.exec(error.message) ?? [];
      return t("cli:errors.excessArguments", { count: Number(expected), received: Number(received) });
    }
    default:
      return t("cli:errors.invalid");
  }
}
