import { expect, test, type Page } from "@playwright/test";
import { openE2eDb, type E2eDb } from "./support/db";
import { login } from "./support/login";

/**
 * Issue 19: a brand-new member paying on a phone sees what they buy and the pay button on the first
 * screen; the chrome's member alerts (confirm your address, notifications, a photo) stay off the
 * payment pages (app/lib/member-alerts.ts), while the other member pages still show them.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
const PASSWORD = "Phone-pay-2026";

let db: E2eDb;
test.beforeAll(async () => {
  db = await openE2eDb();
});

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
  await login(page, m.email, PASSWORD);
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
