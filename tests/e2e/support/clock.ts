import type { Page } from "@playwright/test";

/**
 * Stops the page's fake clock (page.clock.install) where it is now, so only runFor moves it. pauseAt
 * needs a time ahead of the page's clock, which runs on while the call travels: on a busy machine
 * that takes longer than the margin, so a larger one is tried.
 */
export async function stopClock(page: Page) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100 * 2 ** attempt);
    } catch (e) {
      if (attempt >= 4 || !String(e).includes("past")) throw e;
    }
  }
}
