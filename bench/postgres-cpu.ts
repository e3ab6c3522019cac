/**
 * The CPU PostgreSQL spends on a set of clients: their backends are named (`PGAPPNAME`, which
 * node-postgres reads), listed in `pg_stat_activity`, and each backend's CPU read from
 * /proc/<pid>/stat (the database runs on this machine in the bench). A backend that ends between
 * two readings loses what it spent after the first, so pools should outlive the measured window
 * (the workers' pools do: their idle timeout is longer than a sub-batch).
 */
import { readFileSync } from "node:fs";
import pg from "pg";

/** The application_name the bench's worker processes give their PostgreSQL connections. */
export function workerApplicationName(schema: string): string {
  return `sino-bench-worker-${schema}`;
}

function backendCpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

export interface PostgresCpuMeter {
  /** Starts a window: remembers every named backend's CPU so far. */
  start(): Promise<void>;
  /** CPU ms the named backends spent since `start()` (new backends count from zero), and how many there were. */
  stop(): Promise<{ cpuMs: number; backends: number }>;
  close(): Promise<void>;
}

export function postgresCpuMeter(url: string, applicationName: string): PostgresCpuMeter {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  let before = new Map<number, number>();
  async function read(): Promise<Map<number, number>> {
    await connected;
    const { rows } = await client.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [applicationName]);
    const cpu = new Map<number, number>();
    for (const { pid } of rows) {
      const ms = backendCpuMs(pid);
      if (ms !== undefined) cpu.set(pid, ms);
    }
    return cpu;
  }
  return {
    async start() {
      before = await read();
    },
    async stop() {
      const after = await read();
      let cpuMs = 0;
      for (const [pid, ms] of after) cpuMs += ms - (before.get(pid) ?? 0);
      return { cpuMs, backends: after.size };
    },
    close: () => client.end(),
  };
}
