import type { BrowserContext, Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Decision 215 in a browser: the money screens on a phone. No checkout wider than the phone whatever the method
 * and the language, each method with its provider's logo; a coin for credits, prices per credit to the cent, one
 * highlighted package; "Payment complete" after paying; the balance in the chat and the navigation; 44 px tap
 * targets in the chat, the message's Report behind a menu that opens without JavaScript.
 */
const PHONE = { width: 390, height: 844 };

async function cookies(context: BrowserContext, baseURL: string | undefined, lng = "en") {
  await context.addCookies([
    { name: "entry_ok", value: "1", url: baseURL! },
    { name: "dev_country", value: "NL", url: baseURL! },
    { name: "lng", value: lng, url: baseURL! },
  ]);
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

// Seven languages times the Netherlands' methods, without JavaScript (the server's render is what is
// measured): a test per language, so the workers share the pages.
const CHECKOUT_LANGUAGES = ["nl", "de", "fi", "da", "es", "it", "pl"];
for (const lng of CHECKOUT_LANGUAGES) {
  test(`the phone checkout in ${lng} is never wider than the phone, for every method${lng === "nl" ? "; each method shows its logo" : ""}`, async ({
    db,
    loginAs,
    baseURL,
  }) => {
    const me = await db.createMember({ gender: "male", country: "NL", paidUser: true, credits: 5 });
    const page = await loginAs(me, { js: false, viewport: PHONE, isMobile: true, hasTouch: true });
    await cookies(page.context(), baseURL);
    await page.goto("/credits/p1");
    const methods = await page
      .getByTestId("payment-methods")
      .locator(".method a")
      .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname.split("/")[3]!));
    expect(methods).toContain("paysafecard");
    expect(methods).toContain("wire_transfer");
    await cookies(page.context(), baseURL, lng);
    for (const method of methods) {
      await page.goto(`/credits/p1/${method}`);
      const where = `${lng} ${method}`;
      expect(await pageWidth(page), where).toBeLessThanOrEqual(PHONE.width);
      // Every method's name whole inside its card, and every card inside the screen.
      const cards = await page
        .getByTestId("payment-methods")
        .locator(".method > *")
        .evaluateAll((els) =>
          els.map((el) => {
            const name = el.querySelector(".method-name")!;
            return {
              right: el.getBoundingClientRect().right,
              clipped: name.scrollWidth > name.clientWidth || el.scrollWidth > el.clientWidth,
            };
          }),
        );
      expect(
        cards.every((c) => c.right <= PHONE.width && !c.clipped),
        where,
      ).toBe(true);
    }
    if (lng !== "nl") return;
    // The logos are the provider's method list's own (the sandbox's neutral badges), 32 × 24 like Mollie's.
    const badges = page.getByTestId("payment-methods").locator(".method-badge");
    expect(await badges.count()).toBe(methods.length);
    for (const badge of await badges.all()) {
      await expect(badge).toHaveJSProperty("tagName", "IMG");
      await expect(badge).toHaveAttribute("src", /^data:image\/svg\+xml,/);
      expect(await badge.boundingBox()).toMatchObject({ width: 32, height: 24 });
    }
  });
}

test("credits: a coin, prices per credit to the cent, one highlighted package; after paying, 'Payment complete'", async ({
  db,
  loginAs,
  baseURL,
}) => {
  const me = await db.createMember({ gender: "male", country: "NL", paidUser: true, credits: 25 });
  const page = await loginAs(me, { viewport: PHONE, isMobile: true, hasTouch: true });
  await cookies(page.context(), baseURL);
  await page.goto("/credits");
  // The coin, not the "$" drawn before; the balance beside it in the navigation, also above 10 credits.
  const entry = page.locator('.member-nav a[href="/credits"]');
  expect(await entry.locator("svg path").getAttribute("d")).not.toContain("a4 4 0 01-3-3h2");
  await expect(entry.locator('[data-badge="credits"]')).toContainText("25");
  const perCredit = await page.locator(".package-per-credit").allTextContents();
  expect(perCredit.length).toBeGreaterThan(1);
  for (const text of perCredit) expect(text).toMatch(/^€\d+\.\d\d per credit$/);
  // One package stands out (the most popular): one coloured border, one ribbon.
  const borders = await page
    .locator(".package")
    .evaluateAll((els) => els.map((el) => getComputedStyle(el).borderTopWidth));
  expect(borders.filter((w) => w === "2px")).toHaveLength(1);
  await expect(page.locator(".package-ribbon")).toHaveCount(1);

  await page.goto("/credits/p1/ideal");
  await page.waitForFunction(() => "__remixRouter" in window);
  await page.getByRole("button", { name: /^Pay €/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/tr_/);
  await page.getByRole("button", { name: "Paid", exact: true }).click();
  await expect(page).toHaveURL(/\/credits\/p1\/ideal\?payment=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");
  await expect(page).toHaveTitle(/^Payment complete/);
  await expect(page.locator('.member-nav [data-badge="credits"]')).toContainText("85");
});

/** A conversation in which a team-run profile wrote to `me` (its message is stored by the chat's own form). */
async function written(
  db: Parameters<Parameters<typeof test>[2]>[0]["db"],
  loginAs: Parameters<Parameters<typeof test>[2]>[0]["loginAs"],
  credits: number,
) {
  const me = await db.createMember({ gender: "male", country: "NL", paidUser: true, credits });
  const team = await db.createMember({
    name: "Tanja Team",
    gender: "female",
    country: "NL",
    paidUser: true,
    credits: 50,
  });
  await db.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(team.id).run();
  const writer = await loginAs(team, { js: false });
  await writer.goto(`/members/${me.id}/chat`);
  await writer.locator('textarea[name="body"]').fill("Hello from the team");
  await writer.getByRole("button", { name: "Send" }).click();
  await expect(writer.locator(".chat-msg.is-mine")).toContainText("Hello from the team");
  return { me, team };
}

test("the chat shows the balance beside the cost, and it follows a send", async ({ db, loginAs, baseURL }) => {
  const { me, team } = await written(db, loginAs, 37);
  const page = await loginAs(me, { viewport: PHONE, isMobile: true, hasTouch: true });
  await cookies(page.context(), baseURL);
  await page.goto(`/members/${team.id}/chat`);
  await expect(page).toHaveURL(/\/chats\//);
  const balance = page.getByTestId("chat-balance");
  await expect(balance).toHaveText("You have 37 credits");
  await expect(balance).toBeInViewport();
  await expect(page.getByTestId("chat-cost")).toBeInViewport();
  await expect(page.locator('.member-nav [data-badge="credits"]')).toContainText("37");
  await page.waitForFunction(() => "__remixRouter" in window);
  await expect(page.locator("[data-connected]")).toBeAttached();
  await page.locator('textarea[name="body"]').fill("Hi Tanja");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.locator(".chat-msg.is-mine")).toContainText("Hi Tanja");
  await expect(balance).toHaveText("You have 36 credits");
});

for (const js of [true, false]) {
  test(`every tap target in the chat is at least 44 px; a message's Report opens from its menu, JavaScript ${js ? "on" : "off"}`, async ({
    db,
    loginAs,
    baseURL,
  }) => {
    const { me, team } = await written(db, loginAs, 10);
    const page = await loginAs(me, { js, viewport: PHONE, isMobile: true, hasTouch: true });
    await cookies(page.context(), baseURL);
    await page.goto(`/members/${team.id}/chat`);
    await expect(page.locator(".chat-msg.is-theirs")).toContainText("Hello from the team");
    const small = await page
      .locator(".chat-room")
      .locator("a, button, summary, textarea, select, input:not([type=hidden])")
      .evaluateAll((els) =>
        els
          .map((el) => ({ el, r: el.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 0 && r.height > 0 && (r.width < 44 || r.height < 44))
          .map(({ el, r }) => `${el.tagName}.${el.className} ${Math.round(r.width)}×${Math.round(r.height)}`),
      );
    expect(small).toEqual([]);
    const message = page.locator(".chat-msg.is-theirs").first();
    await message.getByLabel("More for this message").click();
    await message.getByRole("link", { name: "Report" }).click();
    await expect(page).toHaveURL(/\/report\?message=/);
    await expect(page.getByRole("heading", { name: "Report this message" })).toBeVisible();
  });
}
