import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { settledTransitions } from "./settled-transitions.js";

/**
 * axe-core's violations on the page as it is now (shadow roots included), one readable line per
 * offending element: rule, impact, target, the start of its HTML and how to fix it. Empty when
 * the page is clean, so a test asserts `toEqual([])` and a failure says what is wrong. Waits for
 * transitions to end first: a colour read mid-fade is a blend with the backdrop.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await settledTransitions(page);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) =>
        `${violation.id} (${violation.impact ?? "?"}) ${node.target.join(" ")} ${node.html.slice(0, 120)}: ${violation.help} — ${(node.failureSummary ?? "").replace(/\s+/g, " ")}`,
    ),
  );
}
