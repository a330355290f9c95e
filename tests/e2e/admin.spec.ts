import { expect, test, type Page } from "@playwright/test";
import { shot } from "./support/shots";

/**
 * The operator console (decision 167) in a browser without JavaScript (it ships none):
 * the development admin logs in, reads the audit log and logs out; the layout is checked at phone
 * and desktop width (screenshots in test-results when SHOTS is set).
 */
test.use({ javaScriptEnabled: false });

async function logIn(page: Page, email: string) {
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login\?redirectTo=/);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("Demo-pass-2026");
  await page.getByRole("button", { name: "Log in" }).click();
}

test("an admin logs in without JavaScript, reads the audit log, logs out", async ({ page }) => {
  await page.goto("/admin/login");
  await shot(page, "admin-login");
  await logIn(page, "operator@example.com");
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: /Dashboard/ })).toBeVisible();
  await shot(page, "admin-home");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("cell", { name: "operator.login" }).first()).toBeVisible();
  await page.getByLabel("Operator e-mail").fill("operator@example.com");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/operator=operator%40example.com/);
  await shot(page, "admin-audit");
  await page.goto("/admin/operators");
  await expect(page.locator(".a-op-head").getByText("moderator@example.com", { exact: true })).toBeVisible();
  await shot(page, "admin-operators");
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto("/admin/audit");
  await expect(page).toHaveURL(/\/admin\/login/);
});

test("a moderator is refused the operators page; a member's login does not open the console", async ({ page }) => {
  await logIn(page, "moderator@example.com");
  const res = await page.goto("/admin/operators");
  expect(res?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  await shot(page, "admin-403");
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByLabel("E-mail address").fill("free@example.com");
  await page.getByLabel("Password").fill("Demo-pass-2026");
  await page.locator("main").getByRole("button", { name: "Log in" }).click();
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/login/);
});
