import { expect, operatorPage, test } from "./support/fixtures";
import { e2eDb } from "./support/db";
import { dob19, tag } from "./support/login";
import { shot } from "./support/shots";
import { EXIF_JPEG, bytesOf } from "../worker/images";

/**
 * Photo review end to end (decision 175): a new member uploads a photo, which
 * waits for review (they see a note; another member's search shows them without it); a moderator
 * approves it in /admin/photos without JavaScript; then it appears on search.
 */

const db = e2eDb();

test("a new member's photo waits for review, a moderator approves it without JavaScript, then it is on search", async ({
  browser,
  loginAs,
}) => {
  const name = `Pia ${tag()}`;
  const owner = await db.createMember({ name, gender: "female", country: "CH", city: "Bern", dateOfBirth: dob19() });
  const me = await loginAs(owner);
  await me.goto("/profile/photos");
  await me
    .locator('input[type="file"]')
    .setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: Buffer.from(bytesOf(EXIF_JPEG)) });
  await me.getByRole("button", { name: "Upload photo" }).click();
  await expect(me).toHaveURL(/\/profile\/photos$/);
  await expect(me.getByText("Waiting for review", { exact: true })).toBeVisible();
  await expect(me.getByText("Only you can see this photo until a moderator has approved it.")).toBeVisible();
  const photoId = (await db.DB.prepare("SELECT id FROM photos WHERE user_id = ?1").bind(owner.id).first<string>("id"))!;
  // The owner sees their own photo.
  await expect(me.locator(`img[src="/photos/${photoId}/thumb"]`)).toBeVisible();
  await shot(me, "photo-pending-own");
  await me.context().close();

  // Another member (no JavaScript) finds her on search, with the placeholder; the file is not served.
  const other = await loginAs(await db.createMember({ gender: "male", country: "CH" }), { js: false });
  const search = "/members?gender=female&country=CH&min_age=18&max_age=20";
  await other.goto(search);
  const card = other.locator(".member-card", { hasText: name });
  await expect(card).toBeVisible();
  await expect(card.locator(`img[src^="/photos/${photoId}/"]`)).toHaveCount(0);
  expect((await other.request.get(`/photos/${photoId}/thumb`)).status()).toBe(404);
  expect((await other.request.get(`/photos/${photoId}/blur`)).status()).toBe(404);

  // A moderator approves it in the console, JavaScript off.
  const m = await operatorPage(browser, "moderator@example.com");
  await m.goto("/admin/photos");
  // Oldest first: page on until her photo shows (other runs may have left older pending photos).
  const tile = m.locator(".a-photo", { has: m.locator(`img[src="/admin/photo/${photoId}/thumb"]`) });
  for (let i = 0; i < 20 && !(await tile.count()); i++) await m.getByRole("link", { name: "Next page →" }).click();
  await expect(tile).toBeVisible();
  await expect(tile.locator("img")).toHaveJSProperty("complete", true);
  await shot(m, "admin-photos");
  await tile.getByRole("button", { name: "Approve" }).click();
  await expect(m.getByRole("status")).toHaveText("Approved: the photo is shown to others.");
  await expect(tile).toHaveCount(0);

  await other.goto(search);
  await expect(card.locator(`img[src="/photos/${photoId}/thumb"]`)).toBeVisible();
  expect((await other.request.get(`/photos/${photoId}/thumb`)).status()).toBe(200);
  await other.context().close();
  await m.context().close();
});
