/**
 * The offers as a new member meets them: the welcome offer in the members area (one code, one end shown
 * as a date and time), JavaScript on (a fake clock drives its end and the 40-second popup) and off;
 * buying with the discount in the sandbox; typed codes; paid features (photo unlock, gifts) that ask first.
 */
import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { E2E_PORT, e2eDb } from "./support/db";
import { stopClock } from "./support/clock";

const HOUR = 3600;
const WEEK = 7 * 24 * HOUR;

const db = e2eDb();

async function newMember(o: { credits?: number; paidUser?: boolean; hoursAgo?: number; secondsAgo?: number } = {}) {
  const m = await db.createMember({ credits: o.credits ?? 0, paidUser: o.paidUser });
  const ago = o.secondsAgo ?? Math.round((o.hoursAgo ?? 0) * HOUR);
  if (ago) await db.DB.prepare("UPDATE users SET created_at = unixepoch() - ?2 WHERE id = ?1").bind(m.id, ago).run();
  const { createdAt } = (await db.DB.prepare("SELECT created_at AS createdAt FROM users WHERE id = ?1")
    .bind(m.id)
    .first<{ createdAt: number }>())!;
  return { ...m, createdAt };
}

/** The banner once its clock runs in the browser (before that, moving the clock moves nothing). */
const liveBanner = (page: Page) => page.locator('[data-testid="time-bonus-banner"][data-live]');

/**
 * The offer's end is watched in the browser: the page's clock stops at once, so only runFor moves it (a
 * slow machine's seconds would count too), and the page finishes loading before it moves. Moving the fake
 * clock while a lazy part still loads fires many ticks at once into a suspended render, which React 18
 * restarts for each tick and never finishes (facebook/react#29058); a real clock ticks once a second.
 */
async function offerRunning(page: Page) {
  await expect(liveBanner(page)).toBeVisible();
  await stopClock(page);
  await page.waitForLoadState("networkidle");
}

const endOf = (m: { createdAt: number }) => new Date((m.createdAt + WEEK) * 1000).toISOString();

test.describe("the welcome offer with JavaScript", () => {
  test("one offer, one end: the banner names the welcome offer and its end as a date and time, linking to /credits", async ({
    page,
  }) => {
    const m = await newMember({ hoursAgo: 5 });
    await logIn(page, m);
    await page.goto("/members");
    const banner = page.getByTestId("time-bonus-banner");
    await expect(banner).toContainText("Welcome offer: 25% off your first credits");
    await expect(banner.locator("time")).toHaveAttribute("datetime", endOf(m));
    await expect(banner).not.toContainText(/Act fast|Ends in/);
    await expect(banner.getByRole("link")).toHaveAttribute("href", "/credits");
    await page.goto("/credits");
    await expect(page.getByTestId("active-discount")).toHaveText("25% discount with code WELCOME25");
  });

  test("the popup opens after 40 s for a member with 0 credits, says the end and no 'act fast'; closing it is remembered", async ({
    page,
  }) => {
    await page.clock.install();
    const m = await newMember({ credits: 0 });
    await logIn(page, m);
    await page.goto("/chats");
    await offerRunning(page);
    // The 40 s count from the banner's start; the clock stopped a moment after it (offerRunning).
    await page.clock.runFor(38_000);
    await expect(page.getByTestId("time-bonus-modal")).toHaveCount(0);
    await page.clock.runFor(2_500);
    const modal = page.getByTestId("time-bonus-modal");
    await expect(modal).toBeVisible();
    await expect(modal.locator("time")).toHaveAttribute("datetime", endOf(m));
    await expect(modal).not.toContainText(/act fast|hours/i);
    await expect(modal.getByRole("link")).toHaveAttribute("href", "/credits");
    await page.getByTestId("time-bonus-close").click();
    await expect(modal).toHaveCount(0);
    expect(Number(await page.evaluate(() => localStorage.getItem("hide-time-bonus-modal")))).toBeGreaterThan(0);
    await page.reload();
    await offerRunning(page);
    await page.clock.runFor(45_000);
    await expect(page.getByTestId("time-bonus-modal")).toHaveCount(0);
  });

  test("no popup for a member with credits", async ({ page }) => {
    await page.clock.install();
    const rich = await newMember({ credits: 5 });
    await logIn(page, rich);
    await page.goto("/members");
    await offerRunning(page);
    await page.clock.runFor(41_000);
    await expect(page.getByTestId("time-bonus-modal")).toHaveCount(0);
  });

  for (const [who, o] of [
    ["a paid user", { paidUser: true }],
    ["a sign-up older than the welcome window", { hoursAgo: 7 * 24 + 0.01 }],
  ] as const) {
    test(`no offer for ${who}`, async ({ page }) => {
      const m = await newMember(o);
      await logIn(page, m);
      await page.goto("/members");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByTestId("time-bonus-banner")).toHaveCount(0);
    });
  }

  test("no offer for a visitor", async ({ page }) => {
    await page.goto("/members");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("time-bonus-banner")).toHaveCount(0);
  });

  test("the end ends the offer: the banner goes, and no other code continues the discount", async ({ page }) => {
    await page.clock.install();
    const m = await newMember({ secondsAgo: WEEK - 30 }); // half a minute left
    await logIn(page, m);
    await page.goto("/members");
    await offerRunning(page);
    await page.clock.runFor(31_000);
    await expect(page.getByTestId("time-bonus-banner")).toHaveCount(0);
    // The server's clock reaches the end too (held here, not waited for): no code continues the discount.
    await db.DB.prepare("UPDATE users SET created_at = unixepoch() - ?2 WHERE id = ?1")
      .bind(m.id, WEEK + 1)
      .run();
    await page.clock.resume();
    await page.goto("/credits");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("active-discount")).toHaveCount(0);
    await expect(page.locator(".price-was")).toHaveCount(0);
  });
});

test.describe("the welcome offer without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the banner shows the end as a date and time", async ({ page }) => {
    const m = await newMember({ hoursAgo: 1 });
    await logIn(page, m);
    await page.goto("/likes");
    const banner = page.getByTestId("time-bonus-banner");
    await expect(banner.locator("time")).toHaveAttribute("datetime", endOf(m));
    await expect(banner.locator("time")).toContainText(/UTC/);
    await expect(banner.getByRole("link")).toHaveAttribute("href", "/credits");
  });
});

test.describe("discount code at checkout without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("a wrong code shows its message; the welcome code strikes the price through and pays the discounted amount", async ({
    page,
  }) => {
    const m = await newMember({ hoursAgo: 5 }); // within the welcome window
    await logIn(page, m);
    // The payment country (iDEAL is offered in NL), set after login: logged out, NL shows the site-entry warning.
    await page.context().addCookies([{ name: "dev_country", value: "NL", url: `http://localhost:${E2E_PORT}` }]);
    await page.goto("/credits/p1/ideal");
    // The active discount (welcome) already shows.
    await expect(page.locator(".price-was").first()).toHaveText("€19.95");
    const form = page.getByTestId("discount-form");
    await form.locator('input[name="code"]').fill("nope-42");
    await form.getByRole("button").click();
    await expect(page.getByRole("alert").filter({ hasText: "Code not found" })).toBeVisible();
    await form.locator('input[name="code"]').fill("welcome25");
    await form.getByRole("button").click();
    await expect(page.getByText("Code WELCOME25 applied: 25% off.")).toBeVisible();
    await expect(page.locator(".price-now").first()).toHaveText("€14.96");
    await page.locator(".pay-form button").click();
    await page.waitForURL(/\/sandbox\//);
    await expect(page.locator("body")).toContainText("14.96");
  });
});

/** A new member (minutes old: the welcome offer running) logged in, paying from NL. */
async function asNewPayer(page: Page, o: { credits?: number } = {}) {
  const m = await newMember(o);
  const url = `http://localhost:${E2E_PORT}`;
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url },
    { name: "dev_country", value: "NL", url },
  ]);
  await logIn(page, m);
  return m;
}

test.describe("buying with the welcome offer, JavaScript on", () => {
  test("the prices show 25% off struck through; the sandbox charges the discounted amount; then the code is used up", async ({
    page,
  }) => {
    await asNewPayer(page);
    await page.goto("/credits");
    await expect(page.getByTestId("active-discount")).toHaveText("25% discount with code WELCOME25");
    const popular = page.getByTestId("packages").locator("li").filter({ hasText: "Popular" });
    await expect(popular.locator(".price-was")).toHaveText("€19.95");
    await expect(popular.locator(".price-now")).toHaveText("€14.96");
    await popular.getByRole("link").click();
    await page.getByTestId("payment-methods").getByRole("link", { name: "iDEAL" }).click();
    await expect(page).toHaveURL(/\/credits\/p1\/ideal(#checkout)?$/);
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.getByRole("button", { name: "Pay €14.96 with iDEAL" }).click();
    await expect(page).toHaveURL(/\/sandbox\/tr_/);
    await expect(page.locator("body")).toContainText("14.96");
    await page.getByRole("button", { name: "Paid", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
    await expect(page.getByTestId("new-balance")).toHaveText("Your balance is now 60 credits.");
    // Paid now: the offer is gone, prices are whole again, and the code is refused.
    await page.goto("/credits/p1/ideal?code=WELCOME25");
    await expect(page.getByTestId("time-bonus-banner")).toHaveCount(0);
    await expect(page.locator(".price-was")).toHaveCount(0);
    await expect(page.getByTestId("discount-form").getByRole("alert")).toHaveText(
      /Code already used|This code has expired\./,
    );
  });

  test("a typed code that does not exist says so, and the price stays discounted by the welcome offer", async ({
    page,
  }) => {
    await asNewPayer(page);
    await page.goto("/credits/p0/ideal");
    await page.waitForFunction(() => "__remixRouter" in window);
    const form = page.getByTestId("discount-form");
    await form.locator('input[name="code"]').fill("NOTHING-HERE");
    await form.getByRole("button", { name: "Apply" }).click();
    await expect(form.getByRole("alert")).toHaveText("Code not found");
    await expect(page).toHaveURL(/code=NOTHING-HERE/);
  });
});

for (const js of [true, false]) {
  test.describe(`paid features, JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("a free member unlocks a private photo for 5 credits after confirming; it is then shown sharp", async ({
      page,
    }) => {
      const owner = await db.createMember({ name: "Privata" });
      const photoId = `e2e-private-${Date.now().toString(36)}${js ? "j" : "n"}`;
      await db.DB.prepare(
        "INSERT INTO photos (id, user_id, is_private, width, height, review) VALUES (?1, ?2, 1, 10, 10, 'approved')",
      )
        .bind(photoId, owner.id)
        .run();
      const me = await asNewPayer(page, { credits: 7 });
      await page.goto(`/members/${owner.id}`);
      const tile = page.locator(".photo-locked").filter({ has: page.locator(`img[src="/photos/${photoId}/blur"]`) });
      await tile.getByText("Unlock for 5 credits").click();
      await expect(tile.getByText("View this private photo for 5 credits? It stays unlocked for you.")).toBeVisible();
      if (js) await page.waitForFunction(() => "__remixRouter" in window);
      await tile.getByTestId("unlock-confirm").click();
      await expect(page.locator(`img[src="/photos/${photoId}/blur"]`)).toHaveCount(0);
      await expect(page.locator(`img[src^="/photos/${photoId}/"]:not([src$="/blur"])`)).toHaveCount(1);
      expect(await db.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(me.id).first("credits")).toBe(2);
    });

    test("a gift asks before spending its 10 credits", async ({ page }) => {
      const other = await db.createMember({ name: "Giftee" });
      const me = await asNewPayer(page, { credits: 30 });
      await page.goto(`/members/${other.id}/chat`);
      if (js) await page.waitForFunction(() => "__remixRouter" in window);
      await page.locator(".chat-gifts > summary").click();
      await page.getByRole("button", { name: /Rose/ }).click();
      const confirm = page.getByTestId("gift-confirm");
      await expect(confirm).toContainText("Send 🌹 Rose for 10 credits?");
      expect(await db.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(me.id).first("credits")).toBe(30);
      await confirm.getByRole("button", { name: "Yes, send it" }).click();
      await expect(page.getByText("You sent a gift: 🌹 Rose")).toBeVisible();
      // D1's users.credits is the wallet's copy, written within seconds of a chat spend (decisions 189, 190).
      await expect
        .poll(() => db.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(me.id).first("credits"), {
          timeout: 15_000,
        })
        .toBe(20);
    });
  });
}
