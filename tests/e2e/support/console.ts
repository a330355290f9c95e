/** Screenshots at phone and desktop width, and an operator's console login (no JavaScript needed). */
import { expect, type Browser, type Page } from "@playwright/test";

/** Full-page screenshots at 390x844 and 1280x800 into $SHOTS (none when it is unset). */
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

/** A console page for a development operator (README: password Demo-pass-2026), JavaScript off. */
export async function operatorPage(browser: Browser, email: string) {
  const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await page.goto("/admin/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("Demo-pass-2026");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).not.toHaveURL(/\/admin\/login/);
  return page;
}
