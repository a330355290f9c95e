import { expect, test } from "@playwright/test";
import { openE2eDb, type E2eDb } from "./support/db";
import { dob19, pageAs, tag } from "./support/login";
import { operatorPage, shot } from "./support/console";
import { EXIF_JPEG, bytesOf } from "../worker/images";

test.describe.configure({ timeout: 180_000 });
let db: E2eDb;
test.beforeAll(async () => {
  db = await openE2eDb();
});
test.afterAll(async () => {
  await db?.dispose();
});

test("screenshots: a photo case, the queue, the operator page", async ({ browser }) => {
  const owner = await db.createMember({ name: `Pia ${tag()}`, gender: "female", country: "DE", dateOfBirth: dob19() });
  const me = await pageAs(browser, true, owner);
  await me.goto("/profile/photos");
  await me
    .locator('input[type="file"]')
    .setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: Buffer.from(bytesOf(EXIF_JPEG)) });
  await me.getByRole("button", { name: "Upload photo" }).click();
  const photoId = (await db.DB.prepare("SELECT id FROM photos WHERE user_id = ?1").bind(owner.id).first<string>("id"))!;
  const reporter = await pageAs(browser, false, await db.createMember({ gender: "male", country: "DE" }));
  await reporter.goto(`/report?photo=${photoId}`);
  await reporter.getByLabel("Reason").selectOption("ncii");
  await reporter.getByLabel("Explanation").fill("This is a private picture of me she posted without asking.");
  await reporter.getByRole("button", { name: "Send report" }).click();
  const m = await operatorPage(browser, "moderator@example.com");
  await m.goto("/admin/reports");
  await shot(m, "queue");
  const caseId = (await db.DB.prepare("SELECT id FROM moderation_cases WHERE target_id = ?1").bind(photoId).first<string>("id"))!;
  await m.goto(`/admin/reports/${caseId}`);
  await expect(m.locator(`img[src="/admin/photo/${photoId}/blur"]`)).toBeVisible();
  await shot(m, "photo-case-blurred");
  await m.getByRole("button", { name: "Show the photo (logged)" }).click();
  await expect(m.locator(`img[src="/admin/photo/${photoId}/full"]`)).toBeVisible();
  await shot(m, "photo-case-shown");
  const a = await operatorPage(browser, "operator@example.com");
  await a.goto("/admin/operators");
  await shot(a, "operators");
});
