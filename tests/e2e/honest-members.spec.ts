import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { e2eDb } from "./support/db";

/**
 * Decision 179 on a phone: a team-run profile is labelled on its search card
 * and in the chat (header and composer), the composer shows what a message costs in credits and money,
 * and buying credits from a chat comes back to that chat with the typed text, JavaScript off.
 */
test.use({ viewport: { width: 390, height: 844 } });
const PASSWORD = "Honest-e2e-2026";

const db = e2eDb();

/** A new male member in NL (8 days old: no time bonus) and a team-run woman of a rare age (77). */
async function setUp(page: Page, baseURL: string | undefined, credits = 0) {
  const me = await db.createMember({ password: PASSWORD, gender: "male", country: "NL", credits, paidUser: true });
  await db.DB.prepare("UPDATE users SET created_at = unixepoch() - 8 * 86400 WHERE id = ?1").bind(me.id).run();
  const dob = new Date();
  dob.setUTCFullYear(dob.getUTCFullYear() - 77, dob.getUTCMonth() - 1);
  const born = dob.toISOString().slice(0, 10);
  const team = await db.createMember({ name: "Tessa Team", gender: "female", country: "NL", dateOfBirth: born });
  await db.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(team.id).run();
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: baseURL! },
    { name: "dev_country", value: "NL", url: baseURL! },
  ]);
  await logIn(page, me);
  return { me, team };
}

test("a team-run profile is labelled on its search card and in the chat; the composer shows the cost", async ({
  page,
  baseURL,
}) => {
  const { team } = await setUp(page, baseURL);
  await page.goto("/members?gender=female&country=NL&min_age=77&max_age=77");
  const card = page.locator(".member-card", { has: page.locator(`a[href="/members/${team.id}"]`) });
  const mark = card.getByTestId("fictional-mark");
  await expect(mark).toBeVisible();
  await expect(mark.locator("summary")).toContainText("Team-run profile");
  await mark.locator("summary").click();
  await expect(mark.getByText("This profile is run by our team")).toBeVisible();

  await page.goto(`/members/${team.id}/chat`);
  await expect(page.locator(".chat-head").getByTestId("fictional-mark")).toBeVisible();
  const composerMark = page.locator(".chat-send").getByTestId("fictional-mark");
  await expect(composerMark).toBeInViewport();
  await expect(page.getByTestId("chat-cost")).toHaveText("A message costs 1 credit · about €0.20–€0.40");
  await expect(page.getByTestId("chat-cost")).toBeInViewport();
});

for (const js of [false, true]) {
  test.describe(`buying credits from a chat, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("the purchase returns to the chat with the typed message", async ({ page, baseURL }) => {
      const { team } = await setUp(page, baseURL, 0);
      await page.goto(`/members/${team.id}/chat`);
      if (js) await page.waitForFunction(() => "__remixRouter" in window);
      await page.locator('textarea[name="body"]').fill("Shall we meet for coffee?");
      await page.getByRole("button", { name: "Send" }).click();
      const refused = page.getByTestId("not-enough-credits");
      await expect(refused).toBeVisible();
      await expect(page.locator('textarea[name="body"]')).toHaveValue("Shall we meet for coffee?");
      await refused.getByRole("button").click();

      await expect(page).toHaveURL(/\/credits$/);
      await expect(page.getByTestId("from-chat")).toBeVisible();
      await expect(page.getByTestId("worth-message")).toContainText("1 credit");
      await page.goto("/credits/p1/ideal");
      if (js) await page.waitForFunction(() => "__remixRouter" in window);
      await page.getByRole("button", { name: /^Pay €/ }).click();
      await expect(page).toHaveURL(/\/sandbox\/tr_/);
      await page.getByRole("button", { name: "Paid", exact: true }).click();
      await expect(page).toHaveURL(/\/credits\/p1\/ideal\?payment=/);
      await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
      await page.getByTestId("back-to-chat").click();

      await expect(page).toHaveURL(new RegExp(`/members/${team.id}/chat$`));
      await expect(page.locator('textarea[name="body"]')).toHaveValue("Shall we meet for coffee?");
      await page.getByRole("button", { name: "Send" }).click();
      await expect(page.locator(".chat-msg.is-mine")).toContainText("Shall we meet for coffee?");
      // Used once: a later visit starts empty.
      await page.goto(`/members/${team.id}/chat`);
      await expect(page.locator('textarea[name="body"]')).toHaveValue("");
    });
  });
}

test("a new member on a phone gets one prompt, not a stack", { tag: "@full-browser" }, async ({ page, baseURL }) => {
  // Minutes old, confirmed, no photo, someone has written: push, discount and photo are all due.
  const me = await db.createMember({ password: PASSWORD, gender: "male", country: "NL" });
  const writer = await db.createMember({ name: "Wanda Writer" });
  await db.conversation(me.id, writer.id, { unread: 1 });
  await page.context().addCookies([{ name: "entry_ok", value: "1", url: baseURL! }]);
  await logIn(page, me);
  await page.goto("/members");
  await expect(page.getByTestId("push-alert")).toBeVisible();
  await expect(page.getByTestId("time-bonus-banner")).toHaveCount(0);
  await expect(page.locator(".photo-alert")).toHaveCount(0);
  await expect(page.locator(".late-alerts > *")).toHaveCount(1);
});

test.describe("visitors without JavaScript (decision 179)", () => {
  test.use({ javaScriptEnabled: false });

  test("a team-run profile's member landing carries its mark, whose warning opens with a tap", async ({
    page,
    baseURL,
  }) => {
    const team = await db.createMember({ name: "Tilda Team", gender: "female", country: "NL" });
    await db.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(team.id).run();
    await page.context().addCookies([{ name: "entry_ok", value: "1", url: baseURL! }]);
    await page.goto(`/members/${team.id}/landing`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Chat with Tilda Team, a team profile");
    const mark = page.getByTestId("lander-member").getByTestId("fictional-mark");
    await expect(mark).toBeVisible();
    await mark.locator("summary").click();
    await expect(mark.getByText("This profile is run by our team")).toBeVisible();
  });

  test("the video lander's badge names a slideshow of photos, not a live stream", async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: "entry_ok", value: "1", url: baseURL! }]);
    await page.goto("/landers/video/general");
    const badge = page.locator(".ld-reel-badge");
    await expect(badge).toHaveText(/member photos/i);
    await expect(page.getByTestId("lander-visual")).not.toContainText(/\blive\b/i);
  });
});
