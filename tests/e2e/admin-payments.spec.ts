import type { Page } from "@playwright/test";
import { clearSession, expect, logIn, test } from "./support/fixtures";
import { e2eDb } from "./support/db";

/**
 * The console's payments and codes (decision 178) without JavaScript (the
 * console ships none): a member buys p1 through the sandbox, a finance operator finds the payment
 * and refunds half of it; the codes page. Screenshots at phone and desktop width when SHOTS is set.
 */
test.use({ javaScriptEnabled: false });
const PASSWORD = "Pay-e2e-pass-2026";

const db = e2eDb();

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

test("a finance operator refunds half a payment without JavaScript", async ({ page, baseURL }) => {
  const m = await db.createMember({
    password: PASSWORD,
    name: "Payer",
    gender: "male",
    country: "NL",
    city: "Utrecht",
  });
  await db.DB.prepare("UPDATE users SET created_at = unixepoch() - 8 * 86400 WHERE id = ?1").bind(m.id).run();
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: baseURL! },
    { name: "dev_country", value: "NL", url: baseURL! },
  ]);
  await logIn(page, m);
  await page.goto("/credits/p1/ideal");
  await page.getByRole("button", { name: /^Pay €/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/tr_/);
  await page.getByRole("button", { name: "Paid", exact: true }).click();
  const paymentId = (await db.DB.prepare(
    "SELECT id FROM payments WHERE user_id = ?1 AND status = 'paid' ORDER BY created_at DESC LIMIT 1",
  )
    .bind(m.id)
    .first("id")) as string;
  expect(paymentId).toBeTruthy();
  const before = (await db.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(m.id).first("credits")) as number;
  await clearSession(page);

  await page.goto("/admin/payments");
  await expect(page).toHaveURL(/\/admin\/login\?redirectTo=/);
  await page.getByLabel("E-mail").fill("finance@example.com");
  await page.getByLabel("Password").fill("Demo-pass-2026");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page).toHaveURL(/\/admin\/payments$/);
  await page.getByLabel("Status").selectOption("paid");
  await page.getByLabel("Amount from").fill("19.95");
  await page.getByLabel("Amount to").fill("19.95");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("link", { name: paymentId })).toBeVisible();
  await shot(page, "admin-payments");
  await page.getByRole("link", { name: paymentId }).click();
  await expect(page.getByRole("heading", { name: `Payment ${paymentId}` })).toBeVisible();
  await expect(page.getByText(/^tr_/).first()).toBeVisible();
  await shot(page, "admin-payment");

  await page.getByLabel(/Amount to refund/).fill("9.97");
  await page.getByRole("button", { name: "Refund" }).click();
  // Confirmed with its amount and the password again (decision 217).
  // The confirmation names the credits it takes back: 9.97 of 19.95 pays for 30 of the 60, all unused.
  await expect(
    page.getByText(
      `Refund €9.97 of payment ${paymentId} to the member, taking back 30 of the member's credits (the refunded share of the 60 bought is 30; 60 are unused now).`,
    ),
  ).toBeVisible();
  await page.getByLabel("Your password").fill("Demo-pass-2026");
  await page.getByRole("button", { name: "Yes, do it" }).click();
  await expect(page.getByRole("status")).toContainText("made");
  await expect(page.getByRole("cell", { name: "€9.97" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "-30", exact: true })).toBeVisible();
  await shot(page, "admin-payment-refunded");
  // Reloading the page after the refund posts nothing again.
  await page.reload();
  const refunds = await db.DB.prepare("SELECT amount_cents, credits FROM refunds WHERE payment_id = ?1")
    .bind(paymentId)
    .all<{ amount_cents: number; credits: number }>();
  expect(refunds.results).toEqual([{ amount_cents: 997, credits: 30 }]);
  expect(await db.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(m.id).first("credits")).toBe(before - 30);
});

test("the codes page: a finance operator sees the codes and the form", async ({ page }) => {
  await page.goto("/admin/codes");
  await page.getByLabel("E-mail").fill("finance@example.com");
  await page.getByLabel("Password").fill("Demo-pass-2026");
  await page.getByRole("button", { name: "Log in" }).click();
  await expect(page.getByRole("heading", { name: "Discount codes" })).toBeVisible();
  const code = `E2E${Date.now().toString(36).toUpperCase()}`;
  await page.getByLabel("Code", { exact: true }).fill(code);
  await page.getByLabel("Percentage off").fill("150");
  await page.getByRole("button", { name: "Create code" }).click();
  await expect(page.getByText("A percentage above 0 and below 100")).toBeVisible();
  await shot(page, "admin-codes-errors");
  await page.getByLabel("Percentage off").fill("15");
  await page.getByLabel("Countries (optional)").fill("NL, BE");
  await page.getByLabel("ideal").check();
  await page.getByRole("button", { name: "Create code" }).click();
  await expect(page.getByRole("status")).toContainText(`Code ${code} created`);
  await expect(page.getByRole("link", { name: code })).toBeVisible();
  await shot(page, "admin-codes");
});
