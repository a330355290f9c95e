import type { Page } from "@playwright/test";
import { expect, operatorLogIn, test } from "./support/fixtures";
import { shot } from "./support/shots";

/**
 * The console's brands (decision 181), without JavaScript (the console ships none):
 * an admin changes a brand's setting in the one form and the brand's site shows it at once; a bad
 * value is refused beside its field. Screenshots of the list and the form when SHOTS is set.
 */
test.use({ javaScriptEnabled: false });

/** The console's home for a seeded operator, logged in by cookie (admin.spec.ts logs in through the form). */
async function logIn(page: Page, email: string) {
  await operatorLogIn(page.context(), email);
  await page.goto("/admin");
}

test("an admin renames a brand and its site shows the new name at once", async ({ page, baseURL }) => {
  const port = new URL(baseURL!).port;
  const site = `http://se.localhost:${port}`;
  await page.goto(`${site}/`);
  await expect(page.getByRole("banner").getByRole("link", { name: "Hjärtslag", exact: true })).toBeVisible();

  await logIn(page, "operator@example.com");
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Brands" }).click();
  await expect(page.getByRole("heading", { name: "Brands" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "se.localhost" })).toBeVisible();
  await shot(page, "admin-brands");

  await page.getByRole("link", { name: "Hjärtslag" }).click();
  await expect(page.getByLabel("Refund days")).toHaveValue("14");
  await shot(page, "admin-brand-form");

  // A bad value: refused beside its field, nothing saved, the typed values kept.
  await page.getByLabel("Host name").fill("not a host!");
  await page.getByLabel("Home page title").fill("Hjärtslag Nord – flörta och chatta");
  await page.getByRole("button", { name: "Save settings" }).click();
  // (The brand's payment account panel may show its own problem beside it: no company key locally.)
  await expect(page.getByRole("alert").filter({ hasText: "Nothing was saved" })).toBeVisible();
  await expect(page.locator("#err-hostname")).toContainText("A host name such as");
  await expect(page.getByLabel("Home page title")).toHaveValue("Hjärtslag Nord – flörta och chatta");
  await shot(page, "admin-brand-form-error");

  await page.getByLabel("Host name").fill("se.localhost");
  await page.getByLabel("Brand name").fill("Hjärtslag Nord");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status")).toContainText("Saved.");
  await expect(page.getByLabel("Brand name")).toHaveValue("Hjärtslag Nord");

  await page.goto(`${site}/`);
  await expect(page).toHaveTitle(/Hjärtslag Nord/);
  await expect(page.getByRole("banner").getByRole("link", { name: "Hjärtslag Nord" })).toBeVisible();

  await page.goto("/admin/audit?action=brand.");
  await expect(page.getByRole("cell", { name: "brand.update" }).first()).toBeVisible();

  // Back as it was, for the other specs on this server.
  await page.goto("/admin/brands/4");
  await page.getByLabel("Brand name").fill("Hjärtslag");
  await page.getByLabel("Home page title").fill("Hjärtslag – flörta, chatta och dejta");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("status")).toContainText("Saved.");
});

test("the add-a-brand form starts from the default brand and says when its domain answers", async ({ page }) => {
  await logIn(page, "operator@example.com");
  await page.goto("/admin/brands/new");
  await expect(page.getByText("as soon as that domain is routed to the Worker")).toBeVisible();
  await expect(page.getByLabel("Brand name")).toHaveValue("");
  await expect(page.getByLabel("Refund days")).toHaveValue("14");
  await shot(page, "admin-brand-new");
});

test("finance is refused the brands", async ({ page }) => {
  await logIn(page, "finance@example.com");
  expect((await page.goto("/admin/brands/1"))?.status()).toBe(403);
});
