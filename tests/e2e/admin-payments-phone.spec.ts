import type { Page } from "@playwright/test";
import { expect, operatorPage, test } from "./support/fixtures";
import { shot } from "./support/shots";

/**
 * The console's payments on a 390 px phone: a payment of a member with a long e-mail address, its
 * refund form saying how many credits a refund takes back, and the list showing the refund's state,
 * none of them wider than the phone. JavaScript off (the console ships none).
 */
test.use({ javaScriptEnabled: false });

/** The page is no wider than its viewport (nothing scrolls sideways but a table inside its own box). */
async function fitsWidth(page: Page) {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0], "page width at a 390 px viewport").toBeLessThanOrEqual(widths[1]!);
}

test("a payment with a long member address, its refund form and the list fit a 390 px phone", async ({
  browser,
  db,
  loginAs,
  baseURL,
}) => {
  const m = await db.createMember({
    email: `a.very-long.member.address.that.goes.on.and.on.${Date.now().toString(36)}@an-equally-long-mailbox-provider.example.com`,
    country: "NL",
  });
  // Signed up a week ago: past the welcome discount, so p1 costs its full €19.95.
  await db.DB.prepare("UPDATE users SET created_at = unixepoch() - 8 * 86400 WHERE id = ?1").bind(m.id).run();
  const buyer = await loginAs(m, { js: false });
  await buyer.context().addCookies([{ name: "dev_country", value: "NL", url: baseURL! }]);
  await buyer.goto("/credits/p1/ideal");
  await buyer.getByRole("button", { name: /^Pay €/ }).click();
  await expect(buyer).toHaveURL(/\/sandbox\/tr_/);
  await buyer.getByRole("button", { name: "Paid", exact: true }).click();
  const paymentId = (await db.DB.prepare(
    "SELECT id FROM payments WHERE user_id = ?1 AND status = 'paid' ORDER BY created_at DESC LIMIT 1",
  )
    .bind(m.id)
    .first("id")) as string;
  expect(paymentId).toBeTruthy();

  const page = await operatorPage(browser, "finance@example.com");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/admin/payments/${paymentId}`);
  await expect(page.getByText(m.email).first()).toBeVisible();
  await expect(page.getByTestId("refund-credits")).toContainText(
    "only those still unused: 60 now. Refunding all €19.95 takes back 60.",
  );
  await fitsWidth(page);
  await shot(page, "admin-payment-refund-form");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel(/Amount to refund/).fill("5.00");
  await page.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByText("taking back 16 of the member's credits")).toBeVisible();
  await fitsWidth(page);
  await shot(page, "admin-payment-refund-confirm");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel("Your password").fill("Demo-pass-2026");
  await page.getByRole("button", { name: "Yes, do it" }).click();
  await expect(page.getByRole("status")).toContainText("made");

  await page.goto(`/admin/payments?min=19.95&max=19.95&status=paid`);
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: paymentId }) });
  await expect(row).toContainText("refund pending");
  await fitsWidth(page);
  await shot(page, "admin-payments-refund-state");
});
