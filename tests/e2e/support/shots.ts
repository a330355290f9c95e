import type { Page } from "@playwright/test";

/** Full-page screenshots at 390x844 and 1280x800 into $SHOTS (skipped when SHOTS is not set); ends at 1280x800. */
export async function shot(page: Page, name: string) {
  if (!process.env.SHOTS) return;
  for (const [w, h] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${process.env.SHOTS}/${name}-${w}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
