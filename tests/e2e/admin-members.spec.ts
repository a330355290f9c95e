import type { Page } from "@playwright/test";
import { expect, operatorLogIn, test } from "./support/fixtures";

/**
 * The console's members part and dashboard (decision 177) without JavaScript (the console
 * ships none): a support operator finds a member by a payment id, grants credits with a reason, and
 * the member's credits show it. Screenshots at phone and desktop width when SHOTS is set.
 */
test.use({ javaScriptEnabled: false });

/** The console's home for a seeded operator, logged in by cookie (admin.spec.ts logs in through the form). */
async function logIn(page: Page, email: string) {
  await operatorLogIn(page.context(), email);
  await page.goto("/admin");
}

async function shot(page: Page, name: string) {
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

test("support finds a member by payment id and grants credits; the member's credits show it", async ({ page }) => {
  await logIn(page, "support@example.com");
  await expect(page.getByRole("heading", { name: "Dashboard · All brands" })).toBeVisible();
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Members" }).click();
  await page.getByLabel("E-mail, name, member id or payment id").fill("tr_demo0001");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByText("by payment id")).toBeVisible();
  await page.getByRole("row").filter({ hasText: "by payment id" }).getByRole("link").first().click();
  await expect(page.getByRole("cell", { name: "tr_demo0001" })).toBeVisible();
  const credits = page.getByTestId("credits");
  const before = Number((await credits.innerText()).replace(/\D/g, ""));

  const form = page.locator("form").filter({ hasText: "Grant or take credits" });
  await form.getByLabel("Credits").fill("25");
  await form.getByLabel("Reason (for the audit log)").fill("Payment went through, credits missing");
  await form.getByRole("button", { name: "Grant" }).click();
  // Confirmed with the password again (decision 217).
  await expect(page.getByText(/^Grant 25 credits to member /)).toBeVisible();
  await page.getByLabel("Your password").fill("Demo-pass-2026");
  await page.getByRole("button", { name: "Yes, do it" }).click();
  await expect(page.getByRole("status")).toHaveText("Credits granted.");
  await expect(credits).toHaveText(String(before + 25));
  await expect(page.getByText("explains the balance")).toBeVisible();
  await expect(page.getByRole("cell", { name: "member.credits_grant" })).toBeVisible();
  await shot(page, "admin-member");

  // Taking more than the balance is refused, and nothing changes.
  await form.getByLabel("Credits").fill(String(before + 26));
  await form.getByLabel("Reason (for the audit log)").fill("Too much on purpose");
  await form.getByRole("button", { name: "Take" }).click();
  await expect(page.getByRole("alert")).toContainText("Nothing was changed.");
  await expect(credits).toHaveText(String(before + 25));
});

test("every role sees the dashboard; a finance operator cannot open members", async ({ page }) => {
  await logIn(page, "finance@example.com");
  await expect(page.getByRole("heading", { name: "Dashboard · All brands" })).toBeVisible();
  await expect(page.locator("svg").first()).toBeVisible();
  await shot(page, "admin-dashboard");
  const res = await page.goto("/admin/members");
  expect(res?.status()).toBe(403);
});
