import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { e2eDb } from "./support/db";

/**
 * Money as a member meets it, with JavaScript on and off, through the local sandbox checkout:
 * buy p1 with iDEAL and become premium at once, retry a failed payment with another method,
 * repeat an order on the card's mandate, and refund unused credits from the receipt.
 */
const PASSWORD = "Pay-e2e-pass-2026";

const db = e2eDb();

async function asNewMember(page: Page, baseURL: string | undefined, o: { paidUser?: boolean } = {}) {
  const m = await db.createMember({
    password: PASSWORD,
    name: "Payer",
    gender: "male",
    country: "NL",
    city: "Utrecht",
    paidUser: o.paidUser,
  });
  // Signed up 8 days ago: past the time bonus and the welcome discount, so prices are the packages' own (offers.spec buys with them).
  await db.DB.prepare("UPDATE users SET created_at = unixepoch() - 8 * 86400 WHERE id = ?1").bind(m.id).run();
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: baseURL! },
    { name: "dev_country", value: "NL", url: baseURL! },
  ]);
  await logIn(page, m);
  return m;
}

/** Pays on /credits/{pkg}/{method} and answers on the sandbox checkout. */
async function payInSandbox(page: Page, js: boolean, outcome: string) {
  if (js) await page.waitForFunction(() => "__remixRouter" in window);
  await page.getByRole("button", { name: /^Pay €/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/tr_/);
  await expect(page.getByText("Test payment: no real money")).toBeVisible();
  await page.getByRole("button", { name: outcome, exact: true }).click();
}

for (const js of [true, false]) {
  test.describe(`payments with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("a free member buys p1 with iDEAL: credits, premium badge and unblurred photos at once", async ({
      page,
      baseURL,
    }) => {
      const me = await asNewMember(page, baseURL);
      const owner = (await db.DB.prepare(
        "SELECT p.user_id AS id FROM photos p JOIN profiles pr ON pr.user_id = p.user_id WHERE p.is_private = 0 AND pr.status = 'active' LIMIT 1",
      ).first("id")) as string;
      await page.goto(`/members/${owner}`);
      await expect(page.locator(".photo-locked").first()).toBeVisible();

      await page.goto("/credits");
      await expect(page.getByTestId("packages").getByText("Most popular")).toBeVisible();
      await page.getByRole("link", { name: "Choose the Popular package" }).click();
      const methods = page.getByTestId("payment-methods");
      await expect(methods.getByRole("link").first()).toHaveText("iDEAL");
      await methods.getByRole("link", { name: "iDEAL" }).click();
      await expect(page).toHaveURL(/\/credits\/p1\/ideal(#checkout)?$/);
      await payInSandbox(page, js, "Paid");

      await expect(page).toHaveURL(/\/credits\/p1\/ideal\?payment=/);
      await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
      await expect(page.getByTestId("new-balance")).toHaveText("Your balance is now 60 credits.");
      await expect(page.getByTestId("get-premium")).toHaveCount(0);

      await page.goto(`/members/${me.id}`);
      await expect(page.locator(".badge-premium")).toBeVisible();
      await page.goto(`/members/${owner}`);
      await expect(page.locator(".photo-locked")).toHaveCount(0);
    });

    test("a failed payment is retried with another method in one click", async ({ page, baseURL }) => {
      await asNewMember(page, baseURL);
      await page.goto("/credits/p0/ideal");
      await payInSandbox(page, js, "Failed");
      await expect(page.getByRole("heading", { name: "Your payment did not go through" })).toBeVisible();
      await expect(page.getByText("The payment failed. Nothing has been charged.")).toBeVisible();
      await page.getByTestId("retry-methods").getByRole("button", { name: "PayPal" }).click();
      await expect(page).toHaveURL(/\/sandbox\/tr_/);
      await page.getByRole("button", { name: "Paid", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
      await expect(page.getByTestId("new-balance")).toHaveText("Your balance is now 25 credits.");
    });

    test("pending, then paid: the page waits and then shows the credits", async ({ page, baseURL }) => {
      await asNewMember(page, baseURL);
      await page.goto("/credits/p0/ideal");
      await payInSandbox(page, js, "Pending, paid a few seconds later");
      await expect(page.getByTestId("payment-pending")).toBeVisible();
      // The sandbox settles by itself after a few seconds: with JS the page updates, without it "Check again".
      if (js) {
        await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 30_000 });
      } else {
        await expect(async () => {
          await page.getByRole("button", { name: "Check again" }).click();
          await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible({ timeout: 1000 });
        }).toPass({ timeout: 30_000 });
      }
    });

    test("a premium member repeats an order on the card's mandate", async ({ page, baseURL }) => {
      await asNewMember(page, baseURL);
      await page.goto("/credits/p0/creditcard");
      await payInSandbox(page, js, "Paid");
      await expect(page.getByTestId("new-balance")).toHaveText("Your balance is now 25 credits.");
      await page.goto("/credits/repeat-order");
      await page.getByRole("button", { name: "Buy 25 credits again for €9.95" }).click();
      await expect(page.getByRole("heading", { name: "Payment complete" })).toBeVisible();
      await expect(page.getByTestId("new-balance")).toHaveText("Your balance is now 50 credits.");
      await page.goto("/transactions");
      await expect(page.getByTestId("transactions").getByRole("row")).toHaveCount(3);
    });

    test("a refund of unused credits from the receipt", async ({ page, baseURL }) => {
      await asNewMember(page, baseURL);
      await page.goto("/credits/p1/ideal");
      await payInSandbox(page, js, "Paid");
      await page.getByRole("link", { name: "View receipt" }).click();
      await expect(page.getByTestId("receipt")).toContainText("VAT (21%)");
      await expect(page.getByTestId("receipt")).toContainText("NL864512378B01");
      await expect(page.getByText("You can get €19.95 back for 60 unused credits of this purchase.")).toBeVisible();
      await page.getByRole("button", { name: "Refund unused credits" }).click();
      await expect(page.getByText("Your refund has been requested.")).toBeVisible();
      await expect(page.getByTestId("refunds")).toContainText("60 credits, €19.95: in progress");
      await page.goto("/credits");
      await expect(page.getByText("You have 0 credits.")).toBeVisible();
    });
  });
}
