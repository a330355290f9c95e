import { expect, test } from "./support/fixtures";

/**
 * Decision 214 in a browser: the automatic like after sign-up is a suggestion. It fits the member (as search's
 * defaults), shows under Suggestions with a plain Like, never under Received, and raises no likes badge.
 */

test("the automatic like is a suggestion: not under Received, no badge, a plain Like", async ({
  db,
  loginAs,
  baseURL,
}) => {
  const me = await db.createMember({ gender: "male", country: "NL", dateOfBirth: "1990-03-10" });
  const page = await loginAs(me, { viewport: { width: 390, height: 844 } });
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: baseURL! },
    { name: "dev_country", value: "NL", url: baseURL! },
  ]);
  const autoLike = page.waitForResponse((r) => r.url().endsWith("/api/auto-like.php"));
  await page.goto("/signup-matches");
  const { profile } = (await (await autoLike).json()) as { profile: { id: string; name: string; age: number } | null };
  expect(profile, "a team-run profile fits a 36-year-old man in the Netherlands").not.toBeNull();
  // It fits him: a woman in his country, around his age.
  const picked = await db.DB.prepare("SELECT gender, country, fictional FROM profiles WHERE user_id = ?1")
    .bind(profile!.id)
    .first<{ gender: string; country: string; fictional: number }>();
  expect(picked).toEqual({ gender: "female", country: "NL", fictional: 1 });
  const age = new Date().getUTCFullYear() - 1990;
  expect(Math.abs(profile!.age - age)).toBeLessThanOrEqual(8);

  const card = (id: string) => page.locator(".member-card", { has: page.locator(`a[href="/likes/m/${id}"]`) });
  await page.goto("/likes/received");
  await expect(page.getByRole("heading", { name: "Likes" })).toBeVisible();
  await expect(card(profile!.id)).toHaveCount(0);
  await expect(page.locator('[data-badge="likes"]')).toHaveCount(0);

  await page.getByRole("link", { name: "Suggestions" }).click();
  await expect(page).toHaveURL(/\/likes\/suggestions$/);
  const suggested = card(profile!.id);
  await expect(suggested).toBeVisible();
  await expect(suggested.locator(".badge-new")).toHaveCount(0);
  await expect(suggested.getByRole("button", { name: /Like back/ })).toHaveCount(0);
  await page.waitForFunction(() => "__remixRouter" in window);
  await suggested.getByRole("button", { name: "Like", exact: true }).click();
  await expect(suggested.getByRole("button")).toHaveCount(0);

  // Liked: a sent like of the member's own, never a match (nobody chose him).
  await page.goto("/likes/sent");
  await expect(card(profile!.id)).toBeVisible();
  await page.goto("/likes/matches");
  await expect(card(profile!.id)).toHaveCount(0);
});
