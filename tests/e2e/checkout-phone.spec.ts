import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { e2eDb } from "./support/db";

/**
 * A brand-new member paying on a phone sees what they buy and the pay button on the first
 * screen; the chrome's member alerts (confirm your address, notifications, a photo) stay off the
 * payment pages (app/lib/member-alerts.ts), while the other member pages still show them.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
const PASSWORD = "Phone-pay-2026";

const db = e2eDb();

/** Just signed up: address not confirmed (profile disabled), no photo, no notifications set up. */
async function asBrandNewMember(page: Page, baseURL: string | undefined) {
  const m = await db.createMember({
    password: PASSWORD,
    name: "Newbie",
    gender: "male",
    country: "NL",
    city: "Utrecht",
    status: "not_confirmed",
    profileStatus: "disabled",
  });
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: baseURL! },
    { name: "dev_country", value: "NL", url: baseURL! },
  ]);
  await logIn(page, m);
}

/** Fully on the first screen, above the phone's bottom navigation. */
async function expectOnFirstScreen(page: Page, what: ReturnType<Page["locator"]>) {
  await expect(what).toBeVisible();
  const box = (await what.boundingBox())!;
  const navTop = (await page.locator(".member-nav").boundingBox())?.y ?? 844;
  // The bottom bar on a phone; on a wider screen the bar is at the top and does not cover anything.
  const bottom = navTop > 422 ? navTop : 844;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, "below the first screen").toBeLessThanOrEqual(bottom);
}

for (const js of [true, false]) {
  test.describe(`checkout on a phone with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("a brand-new member sees the package, the methods and the pay button first, no member alerts", async ({
      page,
      baseURL,
    }) => {
      await asBrandNewMember(page, baseURL);
      // Elsewhere the address reminder is there (server-rendered), alone: one member prompt at a time (decision 179).
      await page.goto("/members");
      await expect(page.getByTestId("activation-reminder")).toBeVisible();
      await expect(page.getByTestId("time-bonus-banner")).toHaveCount(0);

      await page.goto("/credits/p1");
      await expectOnFirstScreen(page, page.getByTestId("packages"));
      await expectOnFirstScreen(page, page.getByTestId("payment-methods"));

      await page.goto("/credits/p1/ideal");
      if (js) await page.waitForFunction(() => "__remixRouter" in window);
      await expectOnFirstScreen(page, page.getByRole("button", { name: /^Pay €/ }));
      await expect(page.getByTestId("activation-reminder")).toHaveCount(0);
      await expect(page.getByTestId("push-alert")).toHaveCount(0);
      await expect(page.locator(".photo-alert")).toHaveCount(0);

      for (const path of ["/credits", "/premium", "/credits/repeat-order", "/directdebit"]) {
        await page.goto(path);
        await expect(page.locator("#main")).toBeVisible();
        await expect(page.getByTestId("activation-reminder"), path).toHaveCount(0);
      }
    });
  });
}

/** Wholly between the sticky top bar and (on a phone) the bottom navigation: seen without scrolling. */
async function expectInView(page: Page, what: ReturnType<Page["locator"]>, label: string) {
  await expect(what, label).toBeVisible();
  const box = (await what.boundingBox())!;
  const { height } = page.viewportSize()!;
  const top = (await page.locator(".topbar").boundingBox())!;
  const nav = (await page.locator(".member-nav").boundingBox())!;
  const bottom = nav.y > height / 2 ? nav.y : height;
  expect(box.y, `${label}: under the top bar`).toBeGreaterThanOrEqual(top.y + top.height - 1);
  expect(box.y + box.height, `${label}: above the bottom navigation`).toBeLessThanOrEqual(bottom + 1);
}

// Decision 180: a tapped method stays in view and highlighted, with "Pay €19.95 with iDEAL" beside it.
for (const js of [true, false]) {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test.describe(`one-screen checkout at ${viewport.width}px, JavaScript ${js ? "on" : "off"}`, () => {
      test.use({ javaScriptEnabled: js, viewport, isMobile: viewport.width < 768, hasTouch: viewport.width < 768 });

      test("package, chosen method and pay button together; methods are cards with badges", async ({
        page,
        baseURL,
      }) => {
        const m = await db.createMember({ password: PASSWORD, gender: "male", country: "NL", paidUser: true });
        await page.context().addCookies([
          { name: "entry_ok", value: "1", url: baseURL! },
          { name: "dev_country", value: "NL", url: baseURL! },
        ]);
        await logIn(page, m);
        await page.goto("/credits/p1/creditcard");
        if (js) await page.waitForFunction(() => "__remixRouter" in window);
        const methods = page.getByTestId("payment-methods");
        // Every method is a card with its badge (the sandbox draws neutral ones).
        await expect(methods.locator(".method")).not.toHaveCount(0);
        expect(await methods.locator(".method .method-badge").count()).toBe(await methods.locator(".method").count());
        // Tap iDEAL from further down the page: the page does not jump to its top.
        await page.mouse.wheel(0, 300);
        await methods.getByRole("link", { name: "iDEAL" }).click();
        await expect(page).toHaveURL(/\/credits\/p1\/ideal#checkout$/);
        const chosen = methods.getByRole("link", { name: "iDEAL" });
        await expect(chosen).toHaveAttribute("aria-current", "true");
        await expectInView(page, page.getByTestId("packages"), "the package");
        await expectInView(page, chosen, "the chosen method");
        const pay = page.getByRole("button", { name: "Pay €19.95 with iDEAL" });
        await expectInView(page, pay, "the pay button");
        // Scrolled down to the country and code forms, the pay button stays in view (sticky).
        await page.getByRole("button", { name: "Apply" }).scrollIntoViewIfNeeded();
        await expectInView(page, pay, "the pay button after scrolling");
      });
    });
  }
}
