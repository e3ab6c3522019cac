import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createMetrics } from "./metrics.js";

interface Panel {
  readonly title?: string;
  readonly type?: string;
  readonly targets?: ReadonlyArray<{ readonly expr?: string }>;
  readonly panels?: readonly Panel[];
}

const dashboard = JSON.parse(readFileSync(new URL("../../../docs/grafana-dashboard.json", import.meta.url), "utf8")) as { panels: Panel[]; uid: string };

function expressions(panels: readonly Panel[]): Array<{ panel: string; expr: string }> {
  return panels.flatMap((panel) => [
    ...(panel.targets ?? []).map((target) => ({ panel: panel.title ?? "?", expr: target.expr ?? "" })),
    ...expressions(panel.panels ?? []),
  ]);
}

/** Every series name a process exports, with a histogram's `_bucket`, `_sum` and `_count`. */
async function exportedSeries(): Promise<Map<string, readonly string[]>> {
  const metrics = createMetrics();
  // As a PostgreSQL process: its pool series exist too.
  metrics.observe({ database: { pool: () => ({ total: 1, idle: 1, waiting: 0, max: 1 }) } });
  const series = new Map<string, readonly string[]>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    // prom-client keeps each metric's declared label names on it (not in its typings).
    const declared = metrics.registry.getSingleMetric(metric.name) as unknown as { labelNames?: readonly string[] };
    const labels = [...(declared.labelNames ?? []), ...metric.values.flatMap((v) => Object.keys(v.labels))];
    const names = String(metric.type) === "histogram" ? ["_bucket", "_sum", "_count"].map((s) => metric.name + s) : [metric.name];
    for (const name of names) series.set(name, labels);
  }
  return series;
}

/** Names in a PromQL expression that look like series (not functions, labels, or keywords). */
function seriesIn(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""').replace(/\{[^}]*\}/g, "{}").replace(/\[[^\]]*\]/g, "[]");
  return [...withoutStrings.matchAll(/\b((?:sino|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);
}

describe("docs/grafana-dashboard.json", () => {
  it("is a dashboard whose every query names only series Sino exports", async () => {
    const exported = await exportedSeries();
    const queries = expressions(dashboard.panels);
    expect(dashboard.uid).toBe("sino-overview");
    expect(queries.length).toBeGreaterThan(10);
    const unknown = queries.flatMap(({ panel, expr }) => seriesIn(expr).filter((name) => !exported.has(name)).map((name) => `${panel}: ${name}`));
    expect(unknown).toEqual([]);
    for (const { panel, expr } of queries) expect(seriesIn(expr), `${panel}: ${expr}`).not.toEqual([]);
  });

  it("shows every sino_ series at least once", async () => {
    const exported = await exportedSeries();
    const used = new Set(expressions(dashboard.panels).flatMap(({ expr }) => seriesIn(expr)));
    const base = (name: string) => name.replace(/_(bucket|sum|count)$/, "");
    const missing = [...new Set([...exported.keys()].filter((n) => n.startsWith("sino_")).map(base))].filter(
      (name) => ![...used].some((u) => u === name || base(u) === name),
    );
    expect(missing).toEqual([]);
  });

  it("groups and filters only by labels the series carry", async () => {
    const exported = await exportedSeries();
    // Prometheus adds these to every scraped series; `le` is a histogram bucket's bound.
    const always = new Set(["instance", "job", "le"]);
    const problems: string[] = [];
    for (const { panel, expr } of expressions(dashboard.panels)) {
      const labels = new Set(seriesIn(expr).flatMap((name) => exported.get(name) ?? []));
      const used = [
        ...[...expr.matchAll(/\bby \(([^)]*)\)/g)].flatMap((m) => m[1]!.split(",").map((l) => l.trim())),
        ...[...expr.matchAll(/\{([^}]*)\}/g)].flatMap((m) => [...m[1]!.matchAll(/([a-z_]+)\s*(?:=~|!=|!~|=)/g)].map((l) => l[1]!)),
      ];
      for (const label of used) if (!always.has(label) && !labels.has(label)) problems.push(`${panel}: ${label}`);
    }
    expect(problems).toEqual([]);
  });
});
