import type { Locator, Page } from "playwright-core";

/** The bell, whatever its state (it is the only toggle button on the page). */
export function bell(page: Page): Locator {
  return page.locator("header button[aria-pressed]");
}

/** Waits until the bell has settled (not busy) in the given state, and returns it. */
export async function settledBell(page: Page, state: "on" | "off"): Promise<Locator> {
  const selector = `header button[aria-pressed="${state === "on"}"][aria-busy="false"]:not([disabled])`;
  await page.waitForSelector(selector);
  return page.locator(selector);
}

/** The rendered colour of the bell's icon as [r, g, b]. */
export async function bellIconColour(page: Page): Promise<[number, number, number]> {
  const colour = await bell(page)
    .locator("svg")
    .evaluate((svg) => getComputedStyle(svg).color);
  const match = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour);
  if (!match) throw new Error(`Unexpected colour ${colour}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

export function isGrey([r, g, b]: [number, number, number]): boolean {
  return r === g && g === b;
}

/** The status line of the home page (`role="status"`), once it no longer says "checking". */
export async function settledStatus(page: Page, checkingText: string): Promise<string> {
  const status = page.getByTestId("push-status");
  await page.waitForFunction(
    (checking) => {
      const el = document.querySelector('[data-testid="push-status"]');
      return el !== null && !(el.textContent ?? "").includes(checking);
    },
    checkingText,
  );
  return (await status.textContent()) ?? "";
}
