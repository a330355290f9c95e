import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { E2E_PORT, e2eDb } from "./support/db";

/**
 * The cams promo block (decision 160): the seed switches it on for Herzklang (de.localhost) only.
 * A member there sees it between search results and on the chats overview; its button counts the
 * click and opens the partner with the brand's tracking parameters. Amora's members never see it.
 */
test.describe.configure({ mode: "serial" }); // both runs count clicks of the same brand
const PASSWORD = "Cams-e2e-pass-2026";
const HERZKLANG = `http://de.localhost:${E2E_PORT}`;
const AMORA = `http://localhost:${E2E_PORT}`;

const db = e2eDb();

async function asMemberOf(page: Page, origin: string, brandId: number, country: string) {
  const m = await db.createMember({ password: PASSWORD, name: "Cam Viewer", gender: "male", country, brandId });
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: origin },
    { name: "dev_country", value: country, url: origin },
  ]);
  await logIn(page, m, origin);
}

const searchClicks = async () =>
  Number(
    await db.DB.prepare(
      "SELECT COALESCE(SUM(clicks), 0) AS n FROM cams_promo_clicks WHERE brand_id = 2 AND placement = 'search'",
    ).first("n"),
  );

for (const js of [true, false]) {
  test.describe(`the cams promo with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("shows where the brand switches it on, and its click is counted and sent to the partner", async ({
      page,
      context,
    }) => {
      // No internet here: the partner's page is answered in the browser.
      await context.route("https://cams.example.com/**", (route) =>
        route.fulfill({ status: 200, contentType: "text/html", body: "<h1>Partner</h1>" }),
      );
      // Austria: Herzklang asks DE visitors a proof of age first (decision 185), not under test here.
      await asMemberOf(page, HERZKLANG, 2, "AT");
      await page.goto(`${HERZKLANG}/chats`);
      await expect(page.getByTestId("cams-promo")).toBeVisible();

      await page.goto(`${HERZKLANG}/members`);
      const block = page.getByTestId("cams-promo");
      await expect(block).toBeVisible();
      await expect(block.getByRole("img")).toHaveCount(0); // decorative picture: alt=""
      await expect(block.locator("img")).toHaveAttribute("src", "/promo/cams.svg");
      // Between the results: member cards before and after it.
      await expect(page.locator(".member-grid").nth(1)).toBeVisible();

      const before = await searchClicks();
      const [partner] = await Promise.all([
        context.waitForEvent("page"),
        block.getByRole("button", { name: "Watch live cams" }).click(),
      ]);
      await partner.waitForURL(/^https:\/\/cams\.example\.com\//);
      const to = new URL(partner.url());
      expect(to.pathname).toBe("/live");
      expect(Object.fromEntries(to.searchParams)).toEqual({
        aff: "herzklang",
        campaign: "members",
        utm_source: "herzklang",
      });
      await expect(partner.getByRole("heading", { name: "Partner" })).toBeVisible();
      expect(await searchClicks()).toBe(before + 1);
    });

    test("is not shown where the brand has it off", async ({ page }) => {
      await asMemberOf(page, AMORA, 1, "NL");
      for (const path of ["/members", "/chats"]) {
        await page.goto(`${AMORA}${path}`);
        await expect(page.locator("#main h1")).toBeVisible();
        await expect(page.getByTestId("cams-promo"), path).toHaveCount(0);
      }
    });
  });
}
