/**
 * Where a worker thread's module lives next to the module that starts it. In development and
 * tests the sources are `.ts` (run by tsx or vitest), so the worker needs tsx's loader too; once
 * compiled they are `.js` and need nothing.
 */
export interface WorkerEntry {
  readonly filename: URL;
  readonly execArgv: string[];
}

export function workerEntry(callerUrl: string, basename: string): WorkerEntry {
  const typescript = /\.[cm]?ts$/.test(new URL(callerUrl).pathname);
  return {
    filename: new URL(`./${basename}${typescript ? ".ts" : ".js"}`, callerUrl),
    execArgv: typescript ? ["--import", "tsx"] : [],
  };
}
