import { expect, test, type BrowserContext, type Page } from "@playwright/test";

async function setCountry(context: BrowserContext, country: string) {
  await context.addCookies([{ name: "dev_country", value: country, domain: "localhost", path: "/" }]);
}

async function switchLanguage(page: Page, label: string) {
  await page.locator("summary", { has: page.locator(".lang-code") }).click();
  await page.getByRole("button", { name: label }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });

    test("switches the language through the header dropdown and remembers it", async ({ page, context }) => {
      await setCountry(context, "US");
      await page.goto("/");
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await switchLanguage(page, "Nederlands");
      await expect(page.locator("html")).toHaveAttribute("lang", "nl");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Online chatten en flirten");
      await page.reload();
      await expect(page.getByTestId("login-button")).toHaveText("Inloggen");
      await switchLanguage(page, "English");
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
    });

    test("shows the site-entry warning once for a listed country", async ({ page, context }) => {
      await setCountry(context, "NL");
      await page.goto("/");
      const modal = page.getByTestId("site-entry");
      await expect(modal).toBeVisible();
      await expect(modal.getByRole("dialog")).toContainText("This website is for adults only");
      await modal.getByRole("button", { name: /I am 18 or older/ }).click();
      await expect(modal).toHaveCount(0);
      // The modal hides as soon as the answer is on its way; the skip flag lands with the response.
      await expect.poll(async () => (await context.cookies()).some((c) => c.name === "entry_ok")).toBe(true);
      await page.reload();
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByTestId("site-entry")).toHaveCount(0);
    });
  });
}

test("no site-entry warning for a country outside the list", async ({ page, context }) => {
  await setCountry(context, "US");
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("site-entry")).toHaveCount(0);
});

for (const host of ["localhost", "de.localhost"]) {
  test(`the visitor top bar fits a phone on ${host}: brand, language, Login and Sign up on one row`, async ({
    page,
    context,
  }) => {
    await context.addCookies([{ name: "dev_country", value: "US", domain: host, path: "/" }]);
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`http://${host}:${process.env.E2E_PORT ?? 8788}/`);
    const barBox = (await page.locator(".topbar-inner").boundingBox())!;
    for (const locator of [
      page.locator(".topbar .brand"),
      page.locator(".topbar .language-menu"),
      page.getByTestId("login-button"),
      page.locator(".topbar .signup-button"),
    ]) {
      const box = (await locator.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(barBox.y);
      expect(box.y + box.height).toBeLessThanOrEqual(barBox.y + barBox.height);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
    }
    // No horizontal scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
}

test("an unknown page shows the 404 with a way home, inside the site chrome", async ({ page }) => {
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();
  await expect(page.getByTestId("disclaimer")).toBeVisible();
  await page.getByRole("link", { name: "Back to the home page" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("with JavaScript a dropdown closes on Escape and on a click outside", async ({ page, context }) => {
  await setCountry(context, "US");
  await page.goto("/");
  const menu = page.locator("details.language-menu");
  const summary = menu.locator("summary");
  // The menu closes on its own only once the page has hydrated: retry opening and Escape until it does.
  await expect(async () => {
    if ((await menu.getAttribute("open")) === null) await summary.click();
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open", "", { timeout: 500 });
  }).toPass();
  await expect(summary).toBeFocused();
  await summary.click();
  await expect(menu).toHaveAttribute("open", "");
  // A click well away from the menu (the open menu itself may cover the page's heading).
  await page.locator("footer").click({ position: { x: 5, y: 5 } });
  await expect(menu).not.toHaveAttribute("open", "");
});
