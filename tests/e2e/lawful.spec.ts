/**
 * Lawful defaults (decisions 180, 213): marketing mails (new members and reminders too) only by an active opt-in (unticked at sign-up,
 * existing members keep their choice), the Impressum on German-language brands, and the delete-account
 * flow telling what credits are lost and offering the refund the refund days allow.
 */
import { clearSession, expect, logIn, test } from "./support/fixtures";
import { E2E_PORT, e2eDb } from "./support/db";
import { SIGNUP_SENT, confirmSignupFromOutbox } from "./support/signup";

const PASSWORD = "Demo-pass-2026";
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const OPT_IN = /e-mail me offers, news, new members and reminders/;

const db = e2eDb();

const disabledTypes = async (email: string) =>
  (
    (await db.DB.prepare(
      "SELECT nd.type FROM notifications_disabled nd JOIN users u ON u.id = nd.user_id WHERE u.email = ?1 ORDER BY nd.type",
    )
      .bind(email)
      .all()) as unknown as { results: { type: string }[] }
  ).results.map((r) => r.type);

for (const js of [true, false]) {
  for (const viewport of VIEWPORTS) {
    for (const optIn of viewport.width === 390 ? [false, true] : [false]) {
      test(`sign-up: promotions, news, new members and reminders ${optIn ? "on after ticking the opt-in" : "off without the opt-in"} (${viewport.width}px, JavaScript ${js ? "on" : "off"})`, async ({
        browser,
        baseURL,
      }) => {
        const context = await browser.newContext({ javaScriptEnabled: js, viewport });
        await context.addCookies([{ name: "entry_ok", value: "1", url: baseURL! }]);
        const page = await context.newPage();
        const email = `e2e-optin-${optIn}-${js}-${viewport.width}-${Date.now().toString(36)}@example.com`;
        await page.goto("/signup");
        const main = page.locator("main");
        await expect(main.getByLabel(OPT_IN)).not.toBeChecked(); // never pre-ticked
        await main.getByLabel("E-mail address").fill(email);
        await main.getByLabel("Username").fill(`Optin${Date.now().toString(36)}`);
        await main.getByLabel("Date of birth (18+)").fill("1991-03-04");
        await main.getByLabel("Password").fill(PASSWORD);
        if (optIn) await main.getByLabel(OPT_IN).check();
        if (js) await page.waitForFunction(() => "__remixRouter" in window); // hydrated: the click is not lost
        await main.getByRole("button", { name: "Sign up free" }).click();
        await expect(page).toHaveURL(SIGNUP_SENT, { timeout: 20_000 }); // a real password hash, on a shared machine
        await confirmSignupFromOutbox(page, email);
        expect(await disabledTypes(email)).toEqual(optIn ? [] : ["new_members", "news", "promotions", "reminders"]);
        await page.goto("/notifications");
        await expect(page.getByLabel("Promotions")).toBeChecked({ checked: optIn });
        await expect(page.getByLabel("News")).toBeChecked({ checked: optIn });
        await expect(page.getByLabel("New members")).toBeChecked({ checked: optIn });
        await expect(page.getByLabel("Reminders", { exact: true })).toBeChecked({ checked: optIn });
        await expect(page.getByLabel("New message")).toBeChecked(); // the service's own mails stay on
        // Not opting in is no "disabled notifications" alert.
        await expect(page.getByTestId("disabled-notifications-alert")).toHaveCount(0);
        await context.close();
      });
    }
  }
}

test("an existing member keeps promotions and news as chosen (no migration flips them)", async ({ page }) => {
  const me = await db.createMember();
  await logIn(page, me);
  await page.goto("/notifications");
  await expect(page.getByLabel("Promotions")).toBeChecked();
  await expect(page.getByLabel("News")).toBeChecked();
});

for (const viewport of VIEWPORTS) {
  test(`Impressum: linked from the footer of the German brand only, with the company's details (${viewport.width}px)`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const company = (await db.DB.prepare(
      "SELECT c.name, c.address, c.kvk, c.vat_numbers FROM companies c JOIN brands b ON b.company_id = c.id WHERE b.hostname = 'de.localhost'",
    ).first()) as { name: string; address: string; kvk: string; vat_numbers: string };
    await page.goto(`http://de.localhost:${E2E_PORT}/`);
    const link = page.locator("footer").getByRole("link", { name: "Impressum" });
    await expect(link).toHaveAttribute("href", "/pages/impressum");
    await link.click();
    await expect(page).toHaveURL(/\/pages\/impressum$/);
    const main = page.locator("main");
    await expect(main.getByRole("heading", { level: 1 })).toHaveText("Impressum");
    for (const value of [company.name, company.address, company.kvk, ...(JSON.parse(company.vat_numbers) as string[])])
      await expect(main).toContainText(value);
    await expect(main).toContainText("USt-IdNr.");
    // An English-language brand has no Impressum link.
    await page.goto("/");
    await expect(page.locator("footer").getByRole("link", { name: /Impressum/ })).toHaveCount(0);
    await context.close();
  });
}

for (const js of [true, false]) {
  for (const viewport of VIEWPORTS) {
    test(`delete account: the unused credits lost and the refund offered (${viewport.width}px, JavaScript ${js ? "on" : "off"})`, async ({
      browser,
    }) => {
      const me = await db.createMember({ paidUser: true });
      const old = await db.createMember({ paidUser: true });
      const pay = `e2e-pay-${Math.random().toString(36).slice(2, 10)}`;
      const oldPay = `${pay}-old`;
      // A purchase of 60 credits today (45 unused) for `me`; one from long before the refund days for `old`.
      for (const [id, user, daysAgo] of [
        [pay, me.id, 0],
        [oldPay, old.id, 400],
      ] as const) {
        await db.DB.prepare(
          `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, paid_at, created_at)
           VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', 'ideal', 'sandbox', 'paid', unixepoch() - ?3 * 86400, unixepoch() - ?3 * 86400)`,
        )
          .bind(id, user, daysAgo)
          .run();
        // Its credits as the webhook gives them (key payment:<id>), then 15 of them spent.
        await db.credits(user, 60, { key: `payment:${id}`, reason: "purchase", refId: id });
        await db.credits(user, -15, { reason: "message" });
      }
      const context = await browser.newContext({ javaScriptEnabled: js, viewport });
      const page = await context.newPage();
      await logIn(page, me);
      await page.goto("/settings/delete");
      const box = page.getByTestId("delete-credits");
      await expect(box).toContainText("Unused credits on your account: 45. They are lost");
      await expect(box).toContainText("get €14.96 back for unused credits (45)");
      await box.getByRole("link", { name: "Request a refund" }).click();
      await expect(page).toHaveURL(new RegExp(`/transactions/${pay}$`));
      // The reasons step says it too.
      await page.goto("/settings/delete?step=reasons");
      await expect(page.getByTestId("delete-credits")).toContainText("45");
      // Past the refund days: the loss is said, no refund is offered.
      await clearSession(page);
      await logIn(page, old);
      await page.goto("/settings/delete");
      await expect(page.getByTestId("delete-credits")).toContainText("Unused credits on your account: 45.");
      await expect(page.getByTestId("delete-credits").getByRole("link", { name: "Request a refund" })).toHaveCount(0);
      await context.close();
    });
  }
}
