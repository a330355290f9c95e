import type { Page } from "@playwright/test";
import { generateTOTP } from "@oslojs/otp";
import { expect, operatorPage, test } from "./support/fixtures";

/**
 * Staff accounts in the console (decision 216), without JavaScript (the console ships none): an admin
 * adds an operator and hands over the one-time password; the new operator's first login asks for a
 * password and an authenticator before anything else; the admin then changes the role and resets the
 * second factor. Screenshots of the operator page at phone and desktop width when SHOTS is set.
 */
test.use({ javaScriptEnabled: false });

async function shot(page: Page, name: string) {
  if (!process.env.SHOTS) return;
  for (const [w, h] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${process.env.SHOTS}/${name}-${w}.png`, fullPage: true });
  }
}

test("an admin adds an operator, who sets up password and authenticator at the first login; then re-roled and reset", async ({
  browser,
}) => {
  const admin = await operatorPage(browser, "operator@example.com");
  await admin.goto("/admin");
  await admin.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Operators" }).click();
  await expect(admin.getByRole("heading", { name: "Operators" })).toBeVisible();
  const email = `e2e-op-${Date.now()}@ops.example.com`;
  const add = admin.getByRole("form", { name: "Add an operator" });
  await add.getByLabel("E-mail").fill(email);
  await add.getByLabel("Name").fill("Edda Example");
  await add.getByLabel("Role").selectOption("moderator");
  await add.getByRole("button", { name: "Add" }).click();
  await expect(admin.getByText(`One-time password for ${email}, shown only now.`)).toBeVisible();
  const once = (await admin.locator(".a-once code").textContent())!.trim();
  await shot(admin, "admin-operators");

  // The new operator's first login: nothing but the setup until it is done.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const op = await context.newPage();
  await op.goto("/admin/reports");
  await op.getByLabel("E-mail").fill(email);
  await op.getByLabel("Password").fill(once);
  await op.getByRole("button", { name: "Log in" }).click();
  await expect(op).toHaveURL(/\/admin\/setup$/);
  await expect(op.getByRole("heading", { name: "Set up your console account" })).toBeVisible();
  await expect(op.getByRole("img", { name: "QR code of the authenticator key" })).toBeVisible();
  await shot(op, "admin-setup");
  await op.goto("/admin/reports");
  await expect(op).toHaveURL(/\/admin\/setup$/);
  const key = await op.locator('input[name="key"]').inputValue();
  const keyBytes = Uint8Array.from(atob(key), (c) => c.charCodeAt(0));
  await op.getByLabel(/^New password/).fill("E2e-own-password-1");
  await op.getByLabel("The new password again").fill("E2e-own-password-1");
  await op.getByLabel("The six digits the app shows now").fill(generateTOTP(keyBytes, 30, 6));
  await op.getByRole("button", { name: "Save and open the console" }).click();
  await expect(op).toHaveURL(/\/admin$/);
  await op.goto("/admin/reports");
  await expect(op.getByRole("heading", { name: /Reports/ }).first()).toBeVisible();
  await context.close();

  // Re-roled and its second factor reset by the admin; the audit log has every step.
  await admin.reload();
  const manage = admin.locator("li").filter({ hasText: email });
  await manage.getByText(`Manage ${email}`).click();
  const roleForm = manage.getByRole("form", { name: `Change the role of ${email}` });
  await roleForm.getByLabel("Role").selectOption("support");
  await roleForm.getByLabel("Reason (for the audit log)").fill("moved to support");
  await roleForm.getByRole("button", { name: "Change role" }).click();
  await expect(admin.getByRole("status").first()).toContainText("Role changed.");
  const again = admin.locator("li").filter({ hasText: email });
  await again.getByText(`Manage ${email}`).click();
  const reset = again.getByRole("form", { name: `Reset the second factor of ${email}` });
  await reset.getByLabel("Reason (for the audit log)").fill("lost phone");
  await reset.getByRole("button", { name: "Reset second factor" }).click();
  await expect(admin.getByText(`One-time password for ${email}, shown only now.`)).toBeVisible();
  await admin.goto("/admin/audit?action=operator.");
  for (const action of ["operator.create", "operator.setup", "operator.role", "operator.reset_totp"])
    await expect(admin.getByText(action, { exact: true }).first()).toBeVisible();
});
