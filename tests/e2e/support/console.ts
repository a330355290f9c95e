/** Screenshots at phone and desktop width, and an operator's console login (no JavaScript needed). */
import { expect, type Browser } from "@playwright/test";

export { shot } from "./shots";

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
