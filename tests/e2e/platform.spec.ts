import { expect, test } from "@playwright/test";

test("the landing page renders the brand", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Amora" }).first()).toBeVisible();
});
