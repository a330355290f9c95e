/**
 * Sign-up by confirmation link (decision 224): the form's post lands on "check your e-mail"; the member
 * is made, and logged in, by the mailed link's button. These follow that link from the development outbox.
 */
import { expect, type Page } from "@playwright/test";

/** The sign-up form's answer, for every address. */
export const SIGNUP_SENT = /\/signup\/sent$/;

/**
 * Opens the newest confirmation mail to `email` in the outbox (on the page's own host), follows its link
 * and presses its button (by structure: its label is in the brand's language); waits for `landing`.
 */
export async function confirmSignupFromOutbox(page: Page, email: string, landing: RegExp = /\/signup-matches$/) {
  const origin = new URL(page.url()).origin;
  await page.goto(`${origin}/dev/outbox?to=${encodeURIComponent(email)}`);
  await page
    .locator(`article[data-to="${email}"]`)
    .first()
    .locator('a[href*="/signup/confirm?token="]')
    .first()
    .click();
  await page.locator('main form:has(input[name="token"]) button[type="submit"]').click();
  await expect(page).toHaveURL(landing);
}
