import type { Page } from "playwright-core";

/**
 * Resolves once every finite animation on the page has ended. MUI fades dialogs, alerts and
 * snackbars in, so a colour read mid-transition is a blend of the element and its backdrop: an
 * accessibility check of contrast waits for this first. Endless animations (a progress spinner)
 * never end and are left out.
 */
export async function settledTransitions(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity),
  );
}
