import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { E2E_PORT, e2eDb } from "./support/db";

/**
 * A brand selling in Swedish kronor (Hjärtslag, se.localhost): a member paying from Sweden sees the
 * prices in kronor, Swish first, pays with Swish in the sandbox and gets the credits; the receipt
 * is in kronor with Swedish VAT. Then the bank charges the payment back (sandbox) and the member's
 * transactions say so. JavaScript on and off.
 */
const PASSWORD = "Pay-e2e-pass-2026";
const SE = `http://se.localhost:${E2E_PORT}`;

const db = e2eDb();

async function swedishMember(page: Page) {
  const m = await db.createMember({
    password: PASSWORD,
    name: "Sven",
    gender: "male",
    country: "SE",
    city: "Stockholm",
    brandId: 4,
    language: "sv",
  });
  // Signed up 8 days ago: past the time bonus and the welcome discount, so prices are the packages' own.
  await db.DB.prepare("UPDATE users SET created_at = unixepoch() - 8 * 86400 WHERE id = ?1").bind(m.id).run();
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: SE },
    { name: "dev_country", value: "SE", url: SE },
  ]);
  await logIn(page, m, SE);
  return m;
}

for (const js of [true, false]) {
  test.describe(`a SEK brand with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("buys p1 with Swish in kronor, then the bank charges it back", async ({ page }) => {
      await swedishMember(page);
      await page.goto(`${SE}/credits`);
      await expect(page.getByTestId("packages")).toContainText(/219,00\s*kr/);
      await expect(page.getByTestId("payment-methods").getByRole("listitem").first()).toHaveText("Swish");

      await page.goto(`${SE}/credits/p1/swish`);
      if (js) await page.waitForFunction(() => "__remixRouter" in window);
      await page.getByRole("button", { name: /^Betala 219,00\s*kr med Swish$/ }).click();
      await expect(page).toHaveURL(/\/sandbox\/tr_/);
      await expect(page.getByText("Testbetalning: inga riktiga pengar")).toBeVisible();
      await expect(page.locator(".sandbox-amount")).toHaveText(/219,00\s*kr/);
      const sandboxUrl = page.url();
      await page.getByRole("button", { name: "Betald", exact: true }).click();

      await expect(page).toHaveURL(/\/credits\/p1\/swish\?payment=/);
      await expect(page.getByTestId("payment-completed")).toBeVisible();
      await expect(page.getByTestId("new-balance")).toHaveText("Ditt saldo är nu 60 krediter.");
      const paymentId = new URL(page.url()).searchParams.get("payment")!;

      await page.goto(`${SE}/transactions/${paymentId}`);
      const receipt = page.getByTestId("receipt");
      await expect(receipt).toContainText(/219,00\s*kr/);
      await expect(receipt).toContainText(/43,80\s*kr/); // 25 % moms

      // The bank reverses the payment; the sandbox calls the webhook.
      await page.goto(sandboxUrl);
      await page.getByRole("button", { name: "Banken återkräver betalningen (chargeback)" }).click();
      await expect(page.getByTestId("sandbox-after")).toContainText("Banken har återkrävt den här betalningen.");
      await page.goto(`${SE}/transactions`);
      await expect(page.getByTestId("transactions")).toContainText("Återkrävd");
      await page.goto(`${SE}/transactions/${paymentId}`);
      await expect(page.getByTestId("chargeback")).toContainText(
        /Din bank har återkrävt den här betalningen \(219,00\s*kr\)/,
      );
    });

    test("an EUR code with a €50 minimum is refused for 109 kr and applies to 899 kr (decision 115)", async ({
      page,
    }, info) => {
      await swedishMember(page);
      const code = `MIN50${js ? "ON" : "OFF"}${Date.now().toString(36).toUpperCase()}`;
      await db.DB.prepare(
        "INSERT INTO discount_codes (code, value_percentage, minimum_order_value, currency) VALUES (?1, '20', 5000, 'EUR')",
      )
        .bind(code)
        .run();
      for (const viewport of [
        { width: 390, height: 844 },
        { width: 1280, height: 800 },
      ]) {
        await page.setViewportSize(viewport);
        await page.goto(`${SE}/credits/p0/creditcard?code=${code}`);
        await expect(
          page.getByRole("alert").filter({ hasText: "Den här koden gäller för beställningar från" }),
        ).toContainText(/50,00\s*€/);
        await expect(page.locator(".price-was")).toHaveCount(0);
        await page.screenshot({ path: info.outputPath(`sek-minimum-${viewport.width}.png`), fullPage: false });
      }
      await page.goto(`${SE}/credits/p3/creditcard?code=${code}`);
      await expect(page.locator(".price-was")).toContainText(/899,00\s*kr/);
    });
  });
}
