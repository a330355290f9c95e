import { expect, logIn, operatorPage, test } from "./support/fixtures";
import { shot } from "./support/console";
import { e2eDb } from "./support/db";

/**
 * Packages and prices in the console (decision 182), without JavaScript (the
 * console ships none): an admin changes p3's euro price and a seeded member's /credits shows it. p3, which
 * no other journey buys in euros: the server is shared, and p1's price is what the payment journeys expect.
 * Screenshots at phone and desktop width when SHOTS is set.
 */
const PASSWORD = "Pack-e2e-pass-2026";

const db = e2eDb();
test.afterAll(async () => {
  // The seeded price again, for whatever runs next on this server.
  await db?.DB.prepare(
    "UPDATE package_prices SET price_cents = 7995 WHERE package_id = 'p3' AND currency = 'EUR'",
  ).run();
});

test("an admin changes a package price and the member's /credits shows it", async ({ browser, page, baseURL }) => {
  const m = await db.createMember({
    password: PASSWORD,
    name: "Buyer",
    gender: "male",
    country: "NL",
    city: "Utrecht",
  });
  // Signed up a month ago: no welcome discount, the list price shows.
  await db.DB.prepare("UPDATE users SET created_at = unixepoch() - 30 * 86400 WHERE id = ?1").bind(m.id).run();
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: baseURL! },
    { name: "dev_country", value: "NL", url: baseURL! },
  ]);
  await logIn(page, m);
  await page.goto("/credits");
  await expect(page.getByText("€79.95").first()).toBeVisible();

  const admin = await operatorPage(browser, "operator@example.com");
  await admin.goto("/admin");
  await admin.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Packages" }).click();
  await expect(admin.getByRole("heading", { name: "Packages, prices and methods" })).toBeVisible();
  await shot(admin, "admin-packages");
  const euros = admin.locator("#package-p3 form").filter({ has: admin.getByLabel("Price in EUR", { exact: true }) });
  await euros.getByLabel("Price in EUR", { exact: true }).fill("84.95");
  await euros.getByRole("button", { name: "Save price" }).click();
  // A price change is confirmed with its reach first (decision 217).
  await expect(admin.getByText("Sell p3 in EUR at 84.95 on every brand selling in EUR")).toBeVisible();
  await admin.getByRole("button", { name: "Yes, do it" }).click();
  await expect(admin.getByRole("status")).toContainText("Price saved.");
  await expect(admin.getByRole("cell", { name: "€84.95" })).toBeVisible();
  await admin.goto("/admin/packages?country=NL#methods");
  await shot(admin, "admin-packages-methods");

  await page.goto("/credits");
  await expect(page.getByText("€84.95").first()).toBeVisible();
  await expect(page.getByText("€79.95")).toHaveCount(0);
  await shot(page, "credits-after-price-change");
});
