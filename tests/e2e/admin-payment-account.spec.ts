import { e2eDb } from "./support/db";
import { expect, operatorLogIn, test } from "./support/fixtures";
import { shot } from "./support/shots";

/**
 * The console shows which Mollie account a brand's money goes to (decision 206) and finance marks a
 * provider alert dealt with, without JavaScript. Screenshots at 390 and 1280 px when SHOTS is set.
 */
test.use({ javaScriptEnabled: false });

test("the brand's payment account, and a provider alert marked dealt with", async ({ page }) => {
  await operatorLogIn(page.context(), "operator@example.com");
  await page.goto("/admin/brands/2");
  const panel = page.getByRole("region", { name: "Payment account" });
  await expect(panel).toContainText("Herzklang GmbH");
  await expect(panel).toContainText("MOLLIE_API_KEY_HERZKLANG");
  await expect(page.getByLabel("Mollie account")).toHaveValue("HERZKLANG");
  await shot(page, "admin-brand-payment-account");

  const db = e2eDb();
  const m = await db.createMember();
  const id = `pay_${crypto.randomUUID().slice(0, 8)}`;
  await db.DB.prepare(
    `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status,
       provider_alert, provider_alert_at) VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', 'ideal', 'sandbox', ?3, 'failed', 'provider says paid, we have failed', unixepoch())`,
  )
    .bind(id, m.id, `tr_${id.slice(4)}`)
    .run();
  await page.goto("/admin");
  await expect(page.getByRole("link", { name: /open provider alerts/ })).toBeVisible();
  await page.goto(`/admin/payments/${id}`);
  await shot(page, "admin-payment-alert-open");
  await page.getByLabel("What was done about it").fill("Checked in Mollie: paid there, credits given by hand");
  await page.getByRole("button", { name: "Mark dealt with" }).click();
  await expect(page.getByRole("status")).toContainText("Dealt with");
  await expect(page.getByRole("status")).toContainText("operator@example.com");
  await shot(page, "admin-payment-alert-dealt");
});
