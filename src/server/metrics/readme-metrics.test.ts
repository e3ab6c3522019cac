import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMetrics } from "./metrics.js";

describe("the README's metrics table", () => {
  it("lists exactly the sino_ series a process exports, with their type", async () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("### Métricas (Prometheus)"), readme.indexOf("## O comando `sino`"));
    const rows = [...section.matchAll(/^\| `(sino_[a-z0-9_]+)` \| ([a-z]+) \|/gm)].map((m) => [m[1]!, m[2]!]);
    const metrics = createMetrics({ processMetrics: false });
    metrics.observe({ database: { pool: () => ({ total: 1, idle: 1, waiting: 0, max: 1 }) } });
    const exported = (await metrics.registry.getMetricsAsJSON()).map((m) => [m.name, String(m.type)]);
    expect(rows.sort()).toEqual(exported.sort());
  });
});
