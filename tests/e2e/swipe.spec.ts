/**
 * The swipe that works (decision 180). On the tinderswipe lander a like or a pass (button or drag)
 * moves the card and shows the next one, with JavaScript on and off; inside, the swipe game is in the
 * main navigation and a mutual swipe like shows the match moment.
 */
import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { e2eDb } from "./support/db";
import { dragRight } from "./support/drag";

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** The index of the card a finger on the middle of the stack would touch (swiped cards let it through). */
const topCard = (page: Page) =>
  page.evaluate(() => {
    const stack = document.querySelector(".sw-stack")!.getBoundingClientRect();
    const hit = document.elementFromPoint(stack.x + stack.width / 2, stack.y + stack.height / 3);
    return hit?.closest<HTMLElement>(".sw-card")?.dataset.i ?? null;
  });

for (const js of [true, false]) {
  for (const viewport of VIEWPORTS) {
    test(`lander: like and pass move the card, the next one shows (${viewport.width}px, JavaScript ${js ? "on" : "off"})`, async ({
      browser,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: js, viewport });
      const page = await context.newPage();
      await page.goto("/landers/tinderswipe");
      const stack = page.locator(".sw-stack");
      await stack.scrollIntoViewIfNeeded();
      await expect.poll(() => topCard(page)).toBe("0");
      if (js) {
        await expect(page.locator(".ld-swipe[data-live]")).toHaveCount(1); // hydrated: the card follows the finger
        await dragRight(page, page.locator(".sw-c-0"));
      } else {
        await page.locator(".sw-c-0 .sw-like").click();
      }
      await expect.poll(() => topCard(page)).toBe("1");
      // Liked cards fly right, passed ones left.
      await expect
        .poll(() => page.locator(".sw-c-0").evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m41))
        .toBeGreaterThan(0);
      if (js) await page.keyboard.press("ArrowLeft");
      else await page.locator(".sw-c-1 .sw-pass").click();
      await expect.poll(() => topCard(page)).toBe("2");
      await expect
        .poll(() => page.locator(".sw-c-1").evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).m41))
        .toBeLessThan(0);
      await context.close();
    });
  }
}

test.describe("inside", () => {
  const db = e2eDb();

  for (const viewport of VIEWPORTS) {
    test(`the swipe game is in the main navigation (${viewport.width}px)`, async ({ browser }) => {
      const me = await db.createMember({ gender: "male" });
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await logIn(page, me);
      await page.goto("/members");
      const item = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Swipe", exact: true });
      await expect(item).toBeVisible(); // not behind the account menu
      await item.click();
      await expect(page).toHaveURL(/\/swipe-game$/);
      await expect(item).toHaveAttribute("aria-current", "page");
      await context.close();
    });
  }

  for (const js of [true, false]) {
    test(`a mutual swipe like shows the match moment (JavaScript ${js ? "on" : "off"})`, async ({ browser }) => {
      const country = js ? "MT" : "CY"; // no seeded member lives there: the card is known
      const me = await db.createMember({ gender: "male", country });
      const her = await db.createMember({ name: `Match ${Math.random().toString(36).slice(2, 7)}`, country });
      // Older than her, within the deck's age range around his (decision 214): the card after hers.
      const other = await db.createMember({ name: "Not a match", country, dateOfBirth: "1988-01-01" });
      await db.like(her.id, me.id);
      const context = await browser.newContext({ javaScriptEnabled: js });
      const page = await context.newPage();
      await logIn(page, me);
      await page.goto("/swipe-game");
      await expect(page.getByTestId("swipe-card")).toContainText(her.name);
      await expect(page.getByTestId("swipe-match")).toHaveCount(0);
      await page.getByRole("button", { name: "Like" }).click();
      const moment = page.getByTestId("swipe-match");
      await expect(moment).toContainText("It's a match!");
      await expect(moment).toContainText(`You and ${her.name} like each other.`);
      // Said once, over the whole screen, with both members' pictures.
      await expect(page.getByText("It's a match!")).toHaveCount(1);
      expect(await moment.boundingBox()).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
      await expect(moment.locator(".avatar")).toHaveCount(2);
      await expect(moment.getByRole("link", { name: "Send a message" })).toHaveAttribute(
        "href",
        `/members/${her.id}/chat`,
      );
      // Keep swiping closes it; the next card is under it; a one-sided like shows no moment.
      await moment.getByRole("link", { name: "Keep swiping" }).click();
      await expect(page.getByTestId("swipe-match")).toHaveCount(0);
      await expect(page.getByTestId("swipe-card")).toContainText(other.name);
      await page.getByRole("button", { name: "Like" }).click();
      await expect(page.getByText("2 likes left today")).toBeVisible();
      await expect(page.getByTestId("swipe-match")).toHaveCount(0);
      // A made-up match in the URL shows nothing.
      await page.goto(`/swipe-game?match=${other.id}`);
      await expect(page.getByTestId("swipe-match")).toHaveCount(0);
      await context.close();
    });
  }
});

// The swipe card's picture is served at least as large as it is drawn (not upscaled, not pixelated).
for (const viewport of VIEWPORTS) {
  test(`lander: the card image fits its box (${viewport.width}px)`, async ({ browser }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto("/landers/tinderswipe");
    const img = page.locator(".sw-c-0 img");
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    const { natural, drawn } = await img.evaluate((el: HTMLImageElement) => ({
      natural: Math.min(el.naturalWidth, el.naturalHeight),
      drawn: Math.max(el.clientWidth, el.clientHeight),
    }));
    expect(natural).toBeGreaterThanOrEqual(drawn);
    await context.close();
  });
}
