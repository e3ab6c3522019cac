import type { Locator, Page } from "playwright-core";

export type EmbedState = "off" | "on" | "denied" | "hidden";

/** The embedded bell's button (inside `<sino-bell>`'s shadow root; playwright's CSS pierces it). */
export function embedBell(page: Page, host = "sino-bell"): Locator {
  return page.locator(`${host} button.bell`);
}

/** Waits until the embedded bell is in `state` and not busy, and returns its button. */
export async function settledEmbedBell(page: Page, state: Exclude<EmbedState, "hidden">, host = "sino-bell"): Promise<Locator> {
  const selector = `${host}[state="${state}"] button.bell[data-state="${state}"][aria-busy="false"]`;
  await page.locator(selector).waitFor();
  return page.locator(selector);
}

/** The rendered colour of the bell's icon as [r, g, b]. */
export async function embedIconColour(page: Page): Promise<[number, number, number]> {
  const colour = await embedBell(page)
    .locator("svg")
    .evaluate((svg) => getComputedStyle(svg).color);
  const match = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour);
  if (!match) throw new Error(`Unexpected colour ${colour}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

