import { expect, test } from "@playwright/test";
import { shot } from "./support/shots";

/**
 * A support operator writes a campaign without JavaScript (the console ships none), previews it as a
 * member gets it, mails a test to themself and sends it; the test and the member's mail arrive in the
 * development outbox (decision 183). Screenshots at 390 and 1280 px when SHOTS is set.
 */
test.use({ javaScriptEnabled: false });

test("a campaign: write, preview, test to me, send", async ({ page }) => {
  // The queue pages through a few hundred members and mails them: slow on a busy machine.
  test.setTimeout(180_000);
  const subject = `Winter offer ${Date.now().toString(36)}`;
  await page.goto("/admin");
  await page.getByLabel("E-mail").fill("support@example.com");
  await page.getByLabel("Password").fill("Demo-pass-2026");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Campaigns" }).click();
  await page.getByRole("link", { name: "New campaign" }).click();
  await page.locator('select[name="brandId"]').selectOption({ label: "Amora (en)" });
  await page.getByLabel("Link (a path on the brand's site)").fill("/credits");
  await page.locator('select[name="plan"]').selectOption("free");
  // A wrong country first: the form says so and keeps what was typed.
  await page.getByLabel("Country (two letters, empty: all)").fill("X1");
  await page.locator('input[name="title_en"]').fill(subject);
  await page.locator('textarea[name="body_en"]').fill("Double credits on every package this weekend.");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("A two-letter country code, e.g. DE.")).toBeVisible();
  await expect(page.locator('input[name="title_en"]')).toHaveValue(subject);
  await page.getByLabel("Country (two letters, empty: all)").fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");
  await expect(page.getByText("Would be mailed")).toBeVisible();

  await page.getByLabel("Member id or e-mail").fill("free@example.com");
  await page.getByRole("button", { name: "Preview" }).click();
  const mail = page.getByRole("region", { name: "Mail preview" });
  await expect(mail).toContainText(subject);
  await expect(mail).toContainText("Double credits on every package this weekend.");
  await expect(mail).toContainText("free@example.com");
  await expect(page.getByRole("region", { name: "Push preview" })).toContainText(subject);
  await shot(page, "admin-campaign-preview");

  await page.getByRole("button", { name: "Send a test to me" }).click();
  await expect(page.getByRole("status")).toHaveText("A test was mailed to support@example.com.");
  await page.getByRole("button", { name: /^Send now to \d+ members$/ }).click();
  // Confirmed with the audience's size and the password again (decision 217).
  await expect(page.getByText(/^Mail \d+ members now \(campaign \d+\)\.$/)).toBeVisible();
  await shot(page, "admin-campaign-confirm");
  await page.getByLabel("Your password").fill("Demo-pass-2026");
  await page.getByRole("button", { name: "Yes, do it" }).click();
  await expect(page.getByRole("status")).toContainText("Sending started");
  await shot(page, "admin-campaign-sending");

  await page.goto("/dev/outbox?to=support%40example.com");
  await expect(page.locator('article[data-to="support@example.com"] .outbox-subject').first()).toHaveText(
    `[Test] ${subject}`,
  );
  // The queue pages through the audience; the member's mail arrives within seconds.
  const memberMail = page.locator('article[data-to="free@example.com"]', { hasText: subject });
  await expect(async () => {
    await page.goto("/dev/outbox?to=free%40example.com");
    await expect(memberMail).toHaveCount(1, { timeout: 500 });
  }).toPass({ timeout: 120_000 });

  await page.goto("/admin/campaigns");
  await expect(page.getByRole("link", { name: subject })).toBeVisible();
  await shot(page, "admin-campaigns");
});
