/**
 * Flirtlokaal (sign-up only with a traffic source) does not tick "Gratis aanmelden"
 * for a visitor without one, while sign-up is closed to them; with a traffic source it does.
 */
import { expect, test } from "@playwright/test";
import { E2E_PORT } from "./support/db";

const NL = `http://nl.localhost:${E2E_PORT}`;

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`no "Gratis aanmelden" tick while sign-up is closed (${viewport.width}px)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: "entry_ok", value: "1", url: NL }]);
    const page = await context.newPage();
    await page.goto(`${NL}/`);
    const points = page.locator(".hero-points");
    await expect(points).toContainText("Discreet en privé");
    await expect(points).not.toContainText("Gratis aanmelden");
    await page.goto(`${NL}/?network=demo`);
    await expect(page.locator(".hero-points")).toContainText("Gratis aanmelden");
    await context.close();
  });
}
