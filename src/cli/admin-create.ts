import type { Readable, Writable } from "node:stream";
import type { z } from "zod";
import { createCommonPasswords } from "../server/auth/common-passwords.js";
import { createPasswordHasher } from "../server/auth/password.js";
import type { Config } from "../server/config.js";
import type { Translator } from "../server/i18n.js";
import { emailSchema, newPasswordSchema, userNameSchema } from "../shared/api/users.js";
import { isErrorCode } from "../shared/errors.js";
import { createDatabase } from "../store/database.js";
import { migrateToLatest } from "../store/migrate.js";
import { createRepositories } from "../store/repositories.js";

/** Where the password comes from: the terminal (no echo) or a pipe (`--password-stdin`). */
export interface PasswordInput {
  readonly stdin: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  /** Prompts go to stderr, so stdout stays clean for scripts. */
  readonly prompt: Writable;
}

/** A failure the command reports with a pt-BR message and an exit code (1 error, 2 usage). */
export class AdminCreateError extends Error {
  override readonly name = "AdminCreateError";
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

export interface AdminCreateOptions {
  readonly email: string;
  readonly name: string;
  readonly passwordStdin: boolean;
}

/** `sino admin create`: makes an admin in the configured database (migrating it first). Returns the email. */
export async function adminCreate(
  config: Config,
  options: AdminCreateOptions,
  input: PasswordInput,
  translator: Translator,
): Promise<string> {
  const { t } = translator;
  const email = parseOrUsage(emailSchema, options.email, translator);
  const name = parseOrUsage(userNameSchema, options.name, translator);
  const password = await readPassword(input, options.passwordStdin, translator);
  parseOrUsage(newPasswordSchema, password, translator);
  if (createCommonPasswords().has(password)) throw new AdminCreateError(t("errors:password_too_common"), 2);

  const database = createDatabase({ url: config.databaseUrl, poolSize: 1, schema: config.databaseSchema });
  try {
    await migrateToLatest(database);
    const passwordHash = await createPasswordHasher().hash(password);
    const result = await createRepositories(database).users.create({ name, email, role: "admin", passwordHash }, Date.now());
    if (result.outcome === "email_taken") throw new AdminCreateError(t("errors:email_taken"), 1);
    return result.user.email;
  } finally {
    await database.destroy();
  }
}

function parseOrUsage<S extends z.ZodType>(schema: S, value: unknown, { t }: Translator): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues[0]?.message ?? "";
  throw new AdminCreateError(t(`errors:${isErrorCode(message) ? message : "validation_failed"}`), 2);
}

async function readPassword(input: PasswordInput, fromPipe: boolean, { t }: Translator): Promise<string> {
  if (!fromPipe && input.stdin.isTTY === true && input.stdin.setRawMode !== undefined) {
    const first = await readHidden(input, t("cli:admin.passwordPrompt"));
    const second = await readHidden(input, t("cli:admin.confirmPrompt"));
    if (first !== second) throw new AdminCreateError(t("cli:admin.mismatch"), 2);
    return first;
  }
  // A pipe: the first line, without its line ending. Never trimmed otherwise: spaces count.
  const text = await readAll(input.stdin);
  const line = text.split(/\r?\n/, 1)[0] ?? "";
  if (line === "") throw new AdminCreateError(t("cli:admin.noPassword"), 2);
  return line;
}

async function readAll(stream: Readable): Promise<string> {
  let text = "";
  for await (const chunk of stream) {
    text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    // Only the first line is used: stop reading once it is complete.
    if (text.includes("\n")) break;
  }
  return text;
}

/** Reads one line from a terminal in raw mode, echoing nothing (the password never shows on screen). */
function readHidden(input: PasswordInput, prompt: string): Promise<string> {
  const stdin = input.stdin;
  input.prompt.write(prompt);
  stdin.setRawMode!(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode!(false);
      stdin.pause();
      input.prompt.write("\n");
      if (error === undefined) resolve(value);
      else reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of typeof chunk === "string" ? chunk : chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") return finish();
        // Ctrl-C and Ctrl-D: give up without creating anything.
        if (ch === "\u0003" || ch === "\u0004") return finish(new AdminCreateError("", 1));
        if (ch === "\u007f" || ch === "\b") value = [...value].slice(0, -1).join("");
        else value += ch;
      }
    };
    stdin.on("data", onData);
  });
}
