import { expect, logIn, test } from "./support/fixtures";
import { e2eDb } from "./support/db";

/**
 * /transactions on a phone (decision 179): each payment is a card that fits 390 px (no table
 * cut off at the right), and its date is written the way the member's language writes dates.
 */
const db = e2eDb();

// 24 November 2026, 12:05 UTC: a fixed time, so the expected text does not depend on the clock.
const AT = Date.UTC(2026, 10, 24, 12, 5) / 1000;

async function memberWithPayments(language: string) {
  const me = await db.createMember({ paidUser: true, credits: 60, language });
  for (const [n, status, method] of [
    [1, "paid", "ideal"],
    [2, "failed", "creditcard"],
  ] as const) {
    await db.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, paid_at, created_at)
       VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', ?3, 'sandbox', ?4, ?5, ?5)`,
    )
      .bind(`e2e-tx-${me.id}-${n}`, me.id, method, status, AT - n * 60)
      .run();
  }
  return me;
}

for (const js of [true, false]) {
  for (const [language, date] of [
    ["de", "24.11.2026"],
    ["en", "24 Nov 2026"],
  ] as const) {
    test(`/transactions at 390 px: cards, no sideways scroll, dates as ${language} writes them (JavaScript ${js ? "on" : "off"})`, async ({
      browser,
    }) => {
      const me = await memberWithPayments(language);
      const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await logIn(page, me);
      await page.goto("/transactions");
      const table = page.getByTestId("transactions");
      await expect(table.getByRole("link").first()).toHaveText(new RegExp(`^${date.replace(/\./g, "\\.")}`));
      // Nothing wider than the screen: not the page, and not the list inside its own scroll box.
      const widths = await page.evaluate(() => {
        const wrap = document.querySelector(".table-wrap")!;
        return {
          page: document.documentElement.scrollWidth,
          wrap: wrap.scrollWidth,
          wrapBox: wrap.clientWidth,
          view: window.innerWidth,
        };
      });
      expect(widths.page).toBeLessThanOrEqual(widths.view);
      expect(widths.wrap).toBeLessThanOrEqual(widths.wrapBox);
      // Each value beside its label, a card per payment.
      const first = table.locator("tbody tr").first();
      const label = language === "de" ? "Betrag" : "Amount";
      expect(
        await first
          .locator("td")
          .nth(3)
          .evaluate((td) => getComputedStyle(td, "::before").content),
      ).toBe(`"${label}"`);
      await context.close();
    });
  }
}

test("/transactions at 1280 px stays a table with its column headings", async ({ browser }) => {
  const me = await memberWithPayments("en");
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await logIn(page, me);
  await page.goto("/transactions");
  await expect(page.getByRole("columnheader", { name: "Amount" })).toBeVisible();
  await expect(page.getByTestId("transactions").getByRole("row")).toHaveCount(3);
  await context.close();
});
