import type { Page } from "@playwright/test";
import { expect, operatorPage, test } from "./support/fixtures";
import { e2eDb } from "./support/db";
import { dob19, tag } from "./support/login";
import { shot } from "./support/shots";
import { EXIF_JPEG, bytesOf } from "../worker/images";

/**
 * A reported photo in its case, the queue, a reporter's record and the operators page, in a browser
 * at 390 and 1280 px (decision 225): the photo itself is shown (not only its id), the record opens
 * from the case, and no page is wider than a phone. Screenshots when SHOTS is set.
 */
const db = e2eDb();

/** Nothing sticks out sideways at the phone's width. */
async function fitsPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a reported photo shows in its case, the reporter's record opens from it; queue and operators fit a phone", async ({
  browser,
  loginAs,
}) => {
  const owner = await db.createMember({ name: `Olga ${tag()}`, gender: "female", country: "DE", dateOfBirth: dob19() });
  const me = await loginAs(owner);
  await me.goto("/profile/photos");
  await me
    .locator('input[type="file"]')
    .setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: Buffer.from(bytesOf(EXIF_JPEG)) });
  await me.getByRole("button", { name: "Upload photo" }).click();
  await expect(me).toHaveURL(/\/profile\/photos$/);
  await expect(me.getByText("Waiting for review", { exact: true })).toBeVisible();
  const photoId = (await db.DB.prepare("SELECT id FROM photos WHERE user_id = ?1").bind(owner.id).first<string>("id"))!;
  await me.context().close();

  const reporterName = `Rex ${tag()}`;
  const r = await loginAs(await db.createMember({ name: reporterName, country: "DE" }), { js: false });
  await r.goto(`/report?photo=${photoId}`);
  await r.getByLabel("Reason").selectOption("spam");
  await r.getByLabel("Explanation").fill("This photo advertises another website.");
  await r.getByRole("button", { name: "Send report" }).click();
  await expect(r.getByRole("heading", { name: "Thank you for your report" })).toBeVisible();
  await r.context().close();
  const caseId = (await db.DB.prepare(
    "SELECT id FROM moderation_cases WHERE target_type = 'photo' AND target_id = ?1 AND status = 'open'",
  )
    .bind(photoId)
    .first<string>("id"))!;

  const m = await operatorPage(browser, "moderator@example.com");
  await m.goto("/admin/reports");
  await expect(m.getByRole("heading", { name: "Reports", exact: true })).toBeVisible();
  await fitsPhone(m);
  await shot(m, "moderation-queue");

  await m.goto(`/admin/reports/${caseId}`);
  const img = m.locator(`img[src^="/admin/photo/${photoId}/"]`).first();
  await expect(img).toBeVisible();
  await expect(img).toHaveJSProperty("complete", true);
  expect(await img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
  await expect(m.getByText(/Reporter's record: 1 notice · 0 action taken · 0 no action · 1 pending/)).toBeVisible();
  await fitsPhone(m);
  await shot(m, "moderation-photo-case");

  await m.getByRole("link", { name: "Open the record" }).click();
  await expect(m.getByRole("heading", { name: `Reporter: member ${reporterName}` })).toBeVisible();
  await fitsPhone(m);
  await shot(m, "moderation-reporter");
  await m.context().close();

  const admin = await operatorPage(browser, "operator@example.com");
  await admin.goto("/admin/operators");
  await expect(admin.getByRole("heading", { name: "Operators" })).toBeVisible();
  await fitsPhone(admin);
  await shot(admin, "admin-operators");
  await admin.context().close();
});
