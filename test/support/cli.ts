import { afterEach, beforeEach } from "vitest";
import type { CliIo } from "../../src/cli/main.js";
import type { TestDatabaseLocation } from "./db.js";

/** A `CliIo` that keeps what the command printed, line by line as written. */
export type CapturedIo = CliIo & { out: string[]; err: string[] };

/** The command's input and output, with `env` as its whole environment (nothing from this process). */
export function captureIo(env: Record<string, string> = {}, options: Pick<CliIo, "stderrIsTty" | "stdin"> = {}): CapturedIo {
  const out: string[] = [];
  const err: string[] = [];
  return { env, out, err, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), ...options };
}

/** The environment that points `sino` at a test database (its SQLite file, or its PostgreSQL schema). */
export function databaseEnv(location: TestDatabaseLocation): Record<string, string> {
  return { DATABASE_URL: location.url, ...(location.schema === undefined ? {} : { SINO_DATABASE_SCHEMA: location.schema }) };
}

/**
 * `runCli` reports failure through `process.exitCode`, which outlives a test: clear it before and
 * after each one, so no test passes or fails on the code the one before left.
 */
export function clearExitCodeAroundEachTest(): void {
  beforeEach(() => {
    process.exitCode = undefined;
  });
  afterEach(() => {
    process.exitCode = undefined;
  });
}
