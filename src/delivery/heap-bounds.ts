import { setFlagsFromString } from "node:v8";

/**
 * Keeps a delivery worker's V8 heap near what its in-flight window holds (lanes × batch pushes),
 * instead of growing with the notification. Measured on a `sino worker` delivering 30,000–1,000,000 pushes
 * (bench/run.ts --workers 1, process.memoryUsage and /proc/<pid>/smaps): what grows is not live
 * data (≈40 MB after a full GC, whatever the notification's size) but V8's sizing for a high survival
 * rate. A sub-batch's rows, requests and bodies live until its slowest push answers, so they
 * survive scavenges; V8 reads that as "objects live long" and doubles the young generation up to
 * its maximum (2 × 64 MB semi-spaces on a 4 GB heap limit: 134 MB of new space, 8 MB in use) and
 * lets the old generation reach 4× the live data before a full collection.
 *
 * Both knobs below are read by V8 each time it resizes, so setting them at start-up works (unlike
 * `--max-semi-space-size`, fixed when the heap is created; `NODE_OPTIONS=--max-semi-space-size=N`
 * is the equivalent for a process started by hand):
 * - the young generation stays at its initial size (no growth): survivors of a sub-batch are
 *   promoted early and collected with the old generation, which is what they are;
 * - the old generation may grow by half its live size before the next full collection (V8's
 *   default factor reaches 4×): a full collection of ≈40 MB live takes a few ms, once every few
 *   thousand pushes.
 * Call once, before the worker starts; the process is a worker process (it changes V8 for all).
 */
export function boundHeapForDelivery(): void {
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--heap-growing-percent=50");
}
