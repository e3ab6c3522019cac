import { Session, type HeapProfiler, type Profiler } from "node:inspector/promises";
import { writeFileSync } from "node:fs";

/**
 * Where the main thread's time goes during a timed send: V8's sampling profiler over this thread
 * only (node:inspector), started just before the send and stopped right after it. The samples are
 * grouped by what ran on top of the stack (self time): node:http2's own code, the rest of Node
 * (streams, events, ticks, async hooks), Sino's code, SQL, the thread pool, the garbage collector,
 * and native code outside JavaScript. The profile itself can be opened in Chrome's DevTools.
 *
 * Over another send, V8's sampling heap profiler (objects already collected included) estimates
 * how many bytes the thread allocated, by the function that allocated them: the garbage the
 * collector then has to deal with.
 */
export interface MainThreadProfiler {
  stop(): Promise<MainThreadProfile>;
}

export interface MainThreadProfile {
  readonly profile: Profiler.Profile;
  /** Share of the busy samples (idle excluded) by group, largest first. */
  readonly groups: ReadonlyArray<{ readonly group: string; readonly share: number }>;
  /** The functions with the most self time, with their share of the busy samples. */
  readonly top: ReadonlyArray<{ readonly name: string; readonly share: number }>;
}

export interface AllocationSummary {
  /** Bytes allocated on this thread over the window (V8's estimate from its samples). */
  readonly allocatedBytes: number;
  /** The functions that allocated the most, with their bytes. */
  readonly topAllocations: ReadonlyArray<{ readonly name: string; readonly bytes: number }>;
}

export async function startMainThreadProfiler(intervalUs = 100): Promise<MainThreadProfiler> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: intervalUs });
  await session.post("Profiler.start");
  return {
    async stop() {
      const { profile } = await session.post("Profiler.stop");
      await session.post("Profiler.disable");
      session.disconnect();
      return { profile, ...summarize(profile) };
    },
  };
}

/**
 * The allocation sampling, separately: it slows the thread down (tracking collected objects), so
 * the benchmark runs it over another send than the CPU profile's.
 */
export async function startAllocationSampler(): Promise<{ stop(): Promise<AllocationSummary> }> {
  const session = new Session();
  session.connect();
  // Newer than @types/node's protocol definitions: without them only objects still alive at the
  // end would be counted, not the garbage.
  const heapSampling = { samplingInterval: 4096, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true };
  await session.post("HeapProfiler.startSampling", heapSampling as HeapProfiler.StartSamplingParameterType);
  return {
    async stop() {
      const { profile } = await session.post("HeapProfiler.stopSampling");
      session.disconnect();
      return summarizeAllocations(profile);
    },
  };
}

export function writeProfile(path: string, result: MainThreadProfile): void {
  writeFileSync(path, JSON.stringify(result.profile));
}

function groupOf(frame: Profiler.ProfileNode["callFrame"]): string | undefined {
  const { functionName, url } = frame;
  if (functionName === "(idle)") return undefined;
  if (functionName === "(garbage collector)") return "garbage collector";
  if (functionName === "(program)" || (url === "" && functionName !== "")) return "native (V8, libuv, nghttp2, OpenSSL)";
  if (url.startsWith("node:internal/http2")) return "node:http2";
  if (url.startsWith("node:")) return "Node: streams, events, ticks, async hooks";
  if (url.includes("/node_modules/kysely/") || url.includes("/node_modules/better-sqlite3/") || url.includes("/node_modules/pg")) {
    return "SQL (Kysely, drivers)";
  }
  if (url.includes("/node_modules/piscina/")) return "thread pool (Piscina)";
  if (url.includes("/src/")) return `Sino: ${url.slice(url.indexOf("/src/") + 1)}`;
  if (url.includes("/bench/") || url.includes("/test/")) return "bench harness";
  return "other";
}

function frameName(frame: Profiler.ProfileNode["callFrame"]): string {
  return `${frame.functionName || "(anonymous)"} ${frame.url.replace(/^.*\/(node_modules|src|bench|test)\//, "$1/")}:${frame.lineNumber + 1}`;
}

function summarizeAllocations(heap: HeapProfiler.SamplingHeapProfile): AllocationSummary {
  const byFunction = new Map<string, number>();
  let total = 0;
  const visit = (node: HeapProfiler.SamplingHeapProfileNode): void => {
    if (node.selfSize > 0) {
      const name = frameName(node.callFrame);
      byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) visit(child);
  };
  visit(heap.head);
  return {
    allocatedBytes: total,
    topAllocations: [...byFunction.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([name, bytes]) => ({ name, bytes })),
  };
}

function summarize(profile: Profiler.Profile): Pick<MainThreadProfile, "groups" | "top"> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const id of profile.samples ?? []) {
    const frame = byId.get(id)!.callFrame;
    const group = groupOf(frame);
    if (group === undefined) continue;
    busy++;
    // Sino's files count as one group in the summary line; the per-file split is in the top list.
    const key = group.startsWith("Sino: ") ? "Sino's code" : group;
    groups.set(key, (groups.get(key) ?? 0) + 1);
    const name = frameName(frame);
    functions.set(name, (functions.get(name) ?? 0) + 1);
  }
  const shares = (counts: Map<string, number>) =>
    [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name, count]) => ({ name, share: busy === 0 ? 0 : count / busy }));
  return {
    groups: shares(groups).map(({ name, share }) => ({ group: name, share })),
    top: shares(functions).slice(0, 12),
  };
}
