/**
 * `sino worker` processes for the bench, started as production starts them: the compiled CLI
 * (`npm run build:server`, then `node bin/sino.js worker`), not through tsx, whose loader holds
 * ≈30 MB of its own. Each worker's RSS is sampled from /proc while it runs (peak from the kernel's
 * VmHWM, and a timeline), and its CPU from /proc/<pid>/stat, so the bench reports what one worker
 * costs in memory and CPU per push.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;

/**
 * Compiles the server (`tsc -p tsconfig.server.json`) so the workers run what `sino worker` runs.
 * `SINO_BENCH_NO_BUILD=1` skips it, for runs side by side on a tree already built (on a loaded
 * machine the build takes minutes, and two builds at once write the same files).
 */
export function buildServer(log: (line: string) => void): void {
  if (process.env.SINO_BENCH_NO_BUILD === "1") {
    log("workers:  SINO_BENCH_NO_BUILD=1: running the server as already built in dist/");
    return;
  }
  const started = performance.now();
  const tsc = spawnSync(process.execPath, [fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.server.json"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (tsc.status !== 0) throw new Error(`npm run build:server failed (${String(tsc.status)})`);
  log(`workers:  compiled the server (npm run build:server) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export interface WorkerProcesses {
  readonly pids: readonly number[];
  /** CPU ms (user + system, every thread) of all the workers so far. */
  cpuMs(): number;
  /** Each worker's peak RSS so far (the kernel's VmHWM), MB. */
  peakRssMB(): number[];
  /** Each worker's RSS now, MB. */
  rssMB(): number[];
  /** Starts a new window of RSS samples (every `everyMs`); `samples()` returns them. */
  sampleRss(everyMs: number): { stop(): Array<{ atMs: number; rssMB: number[] }> };
  stop(): Promise<void>;
}

function procStatus(pid: number, field: "VmHWM" | "VmRSS"): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match === null ? Number.NaN : mb(Number(match[1]) * 1024);
  } catch {
    return Number.NaN;
  }
}

export function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * Starts `count` compiled `sino worker`s with `env`, one after another, each once it has printed
 * that it started (after its migrations and VAPID key check), so they do not race on the migration
 * tables. `onEarlyExit` runs when one exits before `stop()`.
 */
export async function spawnWorkerProcesses(count: number, env: NodeJS.ProcessEnv, onEarlyExit: (pid: number, code: number | null) => void): Promise<WorkerProcesses> {
  const cli = fileURLToPath(new URL("../bin/sino.js", import.meta.url));
  const children: ChildProcess[] = [];
  const exits: Array<Promise<void>> = [];
  let stopping = false;
  for (let i = 0; i < count; i++) {
    const nodeArgs = (process.env.SINO_BENCH_WORKER_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "");
    const child = spawn(process.execPath, [...nodeArgs, cli, "worker"], { env, stdio: ["ignore", "pipe", "inherit"] });
    children.push(child);
    exits.push(new Promise<void>((resolve) => child.once("exit", () => resolve())));
    child.once("exit", (code) => {
      if (!stopping) onEarlyExit(child.pid!, code);
    });
    const lines = createInterface({ input: child.stdout! });
    await new Promise<void>((resolve) => lines.once("line", () => resolve()));
    // What the worker logs after its start line (warnings and errors: SINO_LOG_LEVEL=warn) goes to
    // the bench's stderr, tagged with its pid: a lost lease or a retried push explains duplicates.
    lines.on("line", (line) => process.stderr.write(`worker ${child.pid!}: ${line}\n`));
  }
  const pids = children.map((child) => child.pid!);
  return {
    pids,
    cpuMs: () => pids.reduce((sum, pid) => sum + procCpuMs(pid), 0),
    peakRssMB: () => pids.map((pid) => procStatus(pid, "VmHWM")),
    rssMB: () => pids.map((pid) => procStatus(pid, "VmRSS")),
    sampleRss(everyMs) {
      const started = performance.now();
      const samples: Array<{ atMs: number; rssMB: number[] }> = [];
      const sample = () => samples.push({ atMs: Math.round(performance.now() - started), rssMB: pids.map((pid) => procStatus(pid, "VmRSS")) });
      sample();
      const timer = setInterval(sample, everyMs);
      return {
        stop() {
          clearInterval(timer);
          sample();
          return samples;
        },
      };
    },
    async stop() {
      stopping = true;
      for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
      await Promise.all(exits);
    },
  };
}
