import type { Page } from "@playwright/test";

/**
 * Logs in through the /login form (works with JavaScript on or off); `origin` for another brand's host.
 * For the journeys that are about logging in: other tests log in by cookie (support/fixtures.ts).
 */
export async function login(page: Page, email: string, password: string, origin = "") {
  await page.goto(`${origin}/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith("/login")),
    page.locator('form:has(input[name="password"]) button[type="submit"]').click(),
  ]);
}

/** A short random tag that makes a test's member names unique. */
export const tag = () => Math.random().toString(36).slice(2, 7);
/** A date of birth for someone who is 19 today, so they sort first in an 18–20 search. */
export const dob19 = () => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear() - 19, d.getUTCMonth() - 3, 10)).toISOString().slice(0, 10);
};
