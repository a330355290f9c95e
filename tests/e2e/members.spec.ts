import { expect, test } from "./support/fixtures";
import { e2eDb } from "./support/db";
import { dob19, tag } from "./support/login";
import { dragRight } from "./support/drag";
import { EXIF_JPEG, SMALL_PNG, bytesOf } from "../worker/images";

const db = e2eDb();

for (const js of [true, false]) {
  test.describe(`members with JavaScript ${js ? "on" : "off"}`, () => {
    test("search, open a profile, like, and see the match", async ({ loginAs }) => {
      const name = `Mia ${tag()}`;
      const me = await db.createMember({ gender: "male", country: "CH" });
      const her = await db.createMember({ name, country: "CH", city: "Zürich", dateOfBirth: dob19() });
      await db.like(her.id, me.id);
      const page = await loginAs(me, { js });

      await page.goto("/members");
      await page.locator('select[name="gender"]').selectOption("female");
      await page.locator('select[name="country"]').selectOption("CH");
      await page.locator('select[name="min_age"]').selectOption("18");
      await page.locator('select[name="max_age"]').selectOption("20");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await expect(page).toHaveURL(/max_age=20/);
      await page.getByRole("link", { name: new RegExp(name) }).click();

      await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
      await expect(page.getByText(`${name} likes you.`)).toBeVisible();
      await page.getByRole("button", { name: "Like", exact: true }).click();
      await expect(page.getByText(`It's a match! You and ${name} like each other.`)).toBeVisible();

      await page.goto("/likes/matches");
      await expect(page.getByRole("link", { name: new RegExp(name) })).toBeVisible();
      await page.context().close();
    });

    test("upload a photo: blurred for a free member, sharp for a premium member", async ({ loginAs }) => {
      const owner = await db.createMember({ name: `Poppy ${tag()}`, country: "CH" });
      const page = await loginAs(owner, { js });
      await page.goto("/profile/photos");
      for (const [name, b64, mimeType] of [
        ["me.jpg", EXIF_JPEG, "image/jpeg"],
        ["beach.png", SMALL_PNG, "image/png"],
      ] as const) {
        await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer: Buffer.from(bytesOf(b64)) });
        await page.getByRole("button", { name: "Upload photo" }).click();
        await expect(page).toHaveURL(/\/profile\/photos$/);
      }
      await expect(page.locator(".own-photos li")).toHaveCount(2);
      await expect(page.getByText("Main photo", { exact: true })).toHaveCount(1);
      await page.context().close();
      // A moderator approved them (photo review, decision 175: others see a photo only once approved).
      await db.DB.prepare("UPDATE photos SET review = 'approved' WHERE user_id = ?1").bind(owner.id).run();

      const photos = await db.DB.prepare(
        "SELECT ph.id, (p.main_photo_id = ph.id) AS is_main FROM photos ph JOIN profiles p ON p.user_id = ph.user_id WHERE ph.user_id = ?1",
      )
        .bind(owner.id)
        .all<{ id: string; is_main: number }>();
      const other = photos.results.find((p) => !p.is_main)!.id;

      const free = await loginAs(await db.createMember({ gender: "male" }), { js });
      await free.goto(`/members/${owner.id}`);
      await expect(free.locator(".photo-locked")).toHaveCount(1);
      await expect(free.locator(".photo-locked img")).toHaveAttribute("src", `/photos/${other}/blur`);
      await expect(free.getByRole("link", { name: "Get Premium" }).first()).toBeVisible();
      const asFree = await free.request.get(`/photos/${other}/full`);
      expect(asFree.headers()["x-photo-variant"]).toBe("blur");
      const blurBytes = await asFree.body();
      await free.context().close();

      const premium = await loginAs(await db.createMember({ gender: "male", paidUser: true }), { js });
      await premium.goto(`/members/${owner.id}`);
      await expect(premium.locator(".photo-locked")).toHaveCount(0);
      await expect(premium.locator(`img[src="/photos/${other}/thumb"]`)).toBeVisible();
      const asPremium = await premium.request.get(`/photos/${other}/full`);
      expect(asPremium.headers()["x-photo-variant"]).toBe("full");
      expect(Buffer.compare(await asPremium.body(), blurBytes)).not.toBe(0);
      await premium.context().close();
    });
  });
}

test("members pages hydrate without errors", async ({ loginAs }) => {
  const other = await db.createMember({ name: `Hydra ${tag()}`, country: "CH", city: "Basel" });
  const page = await loginAs(await db.createMember({ gender: "male", country: "CH" }));
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
  for (const path of [
    "/members",
    `/members/${other.id}`,
    `/likes/m/${other.id}`,
    "/likes",
    "/likes/sent",
    "/profile",
    "/profile/photos",
    "/swipe-game",
    "/match-finder",
    "/signup-matches",
    "/complete-signup?step=location",
    "/complete-signup?step=about",
  ]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  expect(errors).toEqual([]);
  await page.context().close();
});

test("the like modal appears after t seconds, drops t from the URL and closes on a click", async ({ loginAs }) => {
  const name = `Liker ${tag()}`;
  const me = await db.createMember({ gender: "male", country: "CH" });
  const liker = await db.createMember({ name, country: "CH" });
  await db.like(liker.id, me.id);
  const page = await loginAs(me);
  await page.goto("/likes/sent?t=1");
  const modal = page.getByTestId("like-modal");
  await expect(modal).toContainText(`${name} likes you!`);
  await expect(page).toHaveURL(/\/likes\/sent$/);
  await expect(modal.getByRole("link", { name: "View profile" })).toHaveAttribute("href", `/members/${liker.id}`);
  await page.mouse.click(5, 5); // anywhere: the backdrop covers the page
  await expect(modal).toHaveCount(0);
  await page.context().close();
});

test("the like modal of a team-run liker: tapping the label opens its text, the close button closes it (decision 202)", async ({
  loginAs,
}) => {
  const me = await db.createMember({ gender: "male", country: "CH" });
  const liker = await db.createMember({ name: `Team ${tag()}`, country: "CH" });
  await db.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(liker.id).run();
  await db.like(liker.id, me.id);
  const page = await loginAs(me);
  await page.goto("/likes/sent?t=1");
  const modal = page.getByTestId("like-modal");
  const mark = modal.getByTestId("fictional-mark");
  await expect(mark.locator("summary")).toHaveText("Team-run profile");
  await expect(mark.locator("summary svg")).toBeVisible();
  await mark.locator("summary").click();
  await expect(modal).toBeVisible();
  await expect(mark.getByText("Replies come from our team, and you cannot meet this person.")).toBeVisible();
  await modal.getByRole("button", { name: "Close" }).click();
  await expect(modal).toHaveCount(0);
  await page.context().close();
});

for (const js of [true, false]) {
  test(`swipe game: ${js ? "drag a card to the right" : "press like"} to like (JavaScript ${js ? "on" : "off"})`, async ({
    loginAs,
  }) => {
    const country = js ? "LU" : "PT"; // a country no seeded member lives in, so the cards are known
    // The deck picks as search does (decision 214): the card's member is of an age near the player's.
    const me = await db.createMember({ gender: "male", country, dateOfBirth: dob19() });
    const first = await db.createMember({ name: `Swipe ${tag()}`, country, dateOfBirth: dob19() });
    const page = await loginAs(me, { js });
    await page.goto("/swipe-game");
    await expect(page.getByText("4 likes left today")).toBeVisible();
    await expect(page.getByTestId("swipe-card")).toContainText(first.name);
    if (js) {
      await expect(page.locator('[data-testid="swipe-card"][data-live]')).toBeVisible(); // draggable: hydrated
      await dragRight(page, page.getByTestId("swipe-card"));
    } else {
      await page.getByRole("button", { name: "Like" }).click();
    }
    await expect(page.getByText("3 likes left today")).toBeVisible();
    const stored = await db.DB.prepare("SELECT source FROM likes WHERE liker_id = ?1 AND liked_id = ?2")
      .bind(me.id, first.id)
      .first("source");
    expect(stored).toBe("swipe");
    await page.context().close();
  });
}
