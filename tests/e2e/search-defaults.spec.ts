/**
 * Decision 180: search starts with the right people (an age range around the member's own age;
 * online first, with a photo first, then nearest; filters for online now, with photo and distance),
 * the match finder promises no shared interests it has not got, and a received like gets "like back".
 */
import { expect, logIn, test } from "./support/fixtures";
import { e2eDb } from "./support/db";

const db = e2eDb();

const tag = () => Math.random().toString(36).slice(2, 8);
/** A date of birth for someone `years` old today. */
const bornYearsAgo = (years: number) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear() - years, d.getUTCMonth() - 2, 10)).toISOString().slice(0, 10);
};

for (const js of [true, false]) {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`search defaults and filters (${viewport.width}px, JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
      const region = `r${tag()}`; // a region of this test alone, in a served country
      const at = { country: "AU", region };
      const me = await db.createMember({ ...at, gender: "male", dateOfBirth: bornYearsAgo(34) });
      const far = await db.createMember({ ...at, name: `Far ${tag()}`, dateOfBirth: bornYearsAgo(30) });
      const near = await db.createMember({ ...at, name: `Near ${tag()}`, dateOfBirth: bornYearsAgo(40) });
      const photo = await db.createMember({ ...at, name: `Photo ${tag()}`, dateOfBirth: bornYearsAgo(33) });
      const online = await db.createMember({ ...at, name: `Online ${tag()}`, dateOfBirth: bornYearsAgo(35) });
      const old = await db.createMember({ ...at, name: `Older ${tag()}`, dateOfBirth: bornYearsAgo(55) });
      const hour = "unixepoch() - 3600";
      const set = (id: string, sql: string) =>
        db.DB.prepare(`UPDATE profiles SET ${sql} WHERE user_id = ?1`).bind(id).run();
      await db.DB.prepare(`UPDATE users SET last_seen_at = ${hour} WHERE id IN (?1, ?2, ?3, ?4)`)
        .bind(far.id, near.id, photo.id, old.id)
        .run();
      await set(me.id, "lat = -33.87, lon = 151.21");
      await set(near.id, "lat = -33.80, lon = 151.10");
      await set(far.id, "lat = -37.81, lon = 144.96");
      await set(photo.id, "lat = -37.81, lon = 144.96, main_photo_id = 'no-such-photo'");
      const context = await browser.newContext({ javaScriptEnabled: js, viewport });
      const page = await context.newPage();
      await logIn(page, me);
      // The results (not the "similar members" below them).
      const names = () => page.locator("ul.member-grid").first().locator(".member-card-name").allInnerTexts();

      await page.goto(`/members?country=AU&countryregion=${region}`);
      // Around a 34-year-old's age, not 18–99; online first, then with a photo, then nearest.
      await expect(page.locator(".search-filters-summary")).toContainText("27–41");
      const order = (await names()).map((n) => n.split(",")[0]!.trim());
      expect(order).toEqual([online.name, photo.name, near.name, far.name]);
      expect(order).not.toContain(old.name);

      // The filters, in the form (folded on a phone); the form submits them as a GET.
      if (await page.locator(".search-filters-toggle").isVisible())
        await page.locator(".search-filters-toggle").click();
      await expect(page.getByLabel("With photo")).toBeVisible();
      await expect(page.locator('select[name="distance"]')).toBeEnabled(); // the member has a position
      await page.getByLabel("Online now").check();
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/online=1/);
      await page.goto(`/members?country=AU&countryregion=${region}&online=1`);
      await expect.poll(async () => (await names()).map((n) => n.split(",")[0]!.trim())).toEqual([online.name]);
      await page.goto(`/members?country=AU&countryregion=${region}&photo=1`);
      await expect.poll(async () => (await names()).map((n) => n.split(",")[0]!.trim())).toEqual([photo.name]);
      await page.goto(`/members?country=AU&countryregion=${region}&distance=25`);
      await expect.poll(async () => (await names()).map((n) => n.split(",")[0]!.trim())).toEqual([near.name]);
      await context.close();
    });
  }

  test(`received likes get "like back" (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
    const me = await db.createMember({ gender: "male" });
    const liker = await db.createMember({ name: `Liker ${tag()}` });
    await db.like(liker.id, me.id);
    const context = await browser.newContext({ javaScriptEnabled: js });
    const page = await context.newPage();
    await logIn(page, me);
    await page.goto("/likes");
    const button = page.getByRole("button", { name: `Like ${liker.name} back` });
    await expect(button).toBeVisible();
    await button.click();
    await expect(page).toHaveURL(/\/likes\/received$/);
    await expect(page.getByRole("button", { name: `Like ${liker.name} back` })).toHaveCount(0);
    const back = await db.DB.prepare("SELECT COUNT(*) AS n FROM likes WHERE liker_id = ?1 AND liked_id = ?2")
      .bind(me.id, liker.id)
      .first("n");
    expect(back).toBe(1);
    await page.goto("/likes/matches");
    await expect(page.locator(".member-card-name", { hasText: liker.name })).toBeVisible();
    await context.close();
  });
}

test("the match finder shows no '0 shared interests' under a promise of the same interests", async ({ page }) => {
  const me = await db.createMember({ gender: "male", country: "IE" });
  await db.createMember({ name: `Finder ${tag()}`, country: "IE" });
  await logIn(page, me);
  await page.goto("/match-finder");
  await expect(page.locator("main")).not.toContainText("with the same interests");
  await expect(page.locator("main")).not.toContainText("0 shared interests");
});
