import type { Page } from "@playwright/test";

/** Logs in through the /login form (works with JavaScript on or off); `origin` for another brand's host. */
export async function login(page: Page, email: string, password: string, origin = "") {
  await page.goto(`${origin}/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith("/login")),
    page.locator('form:has(input[name="password"]) button[type="submit"]').click(),
  ]);
}
