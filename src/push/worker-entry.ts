import { fileURLToPath } from "node:url";

/**
 * Where a worker thread's module lives next to the module that starts it. In development and
 * tests the sources are `.ts` (run by tsx or vitest), so the worker needs tsx too; once compiled
 * they are `.js` and need nothing. Whether the ESM hooks that `--import tsx` registers reach a
 * worker's own module loading has changed between Node versions (Node 20: they do not), but the
 * CommonJS hook always does: workers load the `.ts` with `require` under `--require tsx/cjs`
 * (Piscina requires its task file first).
 */
export interface WorkerEntry {
  readonly filename: URL;
  readonly execArgv: string[];
  /** A script for `new Worker(source, { eval: true })` that loads the module either way. */
  readonly evalSource: string;
}

export function workerEntry(callerUrl: string, basename: string): WorkerEntry {
  const typescript = /\.[cm]?ts$/.test(new URL(callerUrl).pathname);
  const filename = new URL(`./${basename}${typescript ? ".ts" : ".js"}`, callerUrl);
  return {
    filename,
    execArgv: typescript ? ["--require", "tsx/cjs"] : [],
    evalSource: typescript
      ? `require(${JSON.stringify(fileURLToPath(filename))})`
      : `import(${JSON.stringify(filename.href)})`,
  };
}
