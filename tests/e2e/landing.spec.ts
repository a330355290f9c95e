import { AxeBuilder } from "@axe-core/playwright";
import type { BrowserContext } from "@playwright/test";
import { expect, test } from "./support/fixtures";

const port = Number(process.env.E2E_PORT ?? 8788);
const BRANDS = [
  { host: "localhost", lang: "en", name: "Amora", headline: "Chat and flirt online", cta: "Sign up free" },
  {
    host: "de.localhost",
    lang: "de",
    name: "Herzklang",
    headline: "Selbstbewusste Frauen, keine Spielchen",
    cta: "Kostenlos registrieren",
  },
  {
    host: "nl.localhost",
    lang: "nl",
    name: "Flirtlokaal",
    headline: "Vrouwen die weten wat ze willen",
    cta: "Inloggen",
  },
] as const;

/** Visitors from a country outside the site-entry list, so the page itself is under test. */
async function fromCountry(context: BrowserContext, host: string, country: string) {
  await context.addCookies([{ name: "dev_country", value: country, domain: host, path: "/" }]);
}

for (const brand of BRANDS) {
  test.describe(`${brand.name} landing`, () => {
    test("renders the brand's niche in its own language", async ({ page, context }) => {
      await fromCountry(context, brand.host, "US");
      await page.goto(`http://${brand.host}:${port}/`);
      await expect(page.locator("html")).toHaveAttribute("lang", brand.lang);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(brand.headline);
      await expect(page.getByRole("link", { name: brand.name }).first()).toBeVisible();
      await expect(
        page
          .locator(".hero")
          .getByRole("link", { name: brand.cta })
          .or(page.getByRole("button", { name: brand.cta })),
      ).toBeVisible();
      await expect(page.getByTestId("disclaimer")).toContainText(brand.name);
    });

    test("has no serious or critical accessibility violations", async ({ page, context }) => {
      await fromCountry(context, brand.host, "US");
      await page.goto(`http://${brand.host}:${port}/`);
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    });
  });
}

test("the site-entry warning is accessible too", async ({ page, context }) => {
  await fromCountry(context, "localhost", "NL");
  await page.goto("/");
  await expect(page.getByTestId("site-entry")).toBeVisible();
  const results = await new AxeBuilder({ page }).include("[data-testid=site-entry]").analyze();
  expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the landing page renders fully with a working sign-up form and FAQ", async ({ page, context }) => {
    await fromCountry(context, "localhost", "US");
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Chat and flirt online");
    const form = page.locator('form[action="/signup"]');
    for (const name of ["email", "name", "date_of_birth", "password"])
      await expect(form.locator(`[name="${name}"]`)).toBeVisible();
    await expect(page.getByRole("link", { name: "Log in" }).first()).toBeVisible();
    // FAQ answers open natively (details/summary).
    await page.getByText("Is signing up free?").click();
    await expect(page.getByText("Creating an account and your profile is free.")).toBeVisible();
  });

  test("a traffic-source brand opens sign-up when the visitor brings a source", async ({ page, context }) => {
    await fromCountry(context, "nl.localhost", "US");
    await page.goto(`http://nl.localhost:${port}/?network=partner1`);
    await expect(page.locator('form[action^="/signup"] input[name="network"]')).toHaveValue("partner1");
    await expect(page.getByRole("button", { name: "Gratis aanmelden" })).toBeVisible();
  });
});

// The map lander's list is headed "near you" only when it lists members of the visitor's
// country. A US member has no place on the map of Europe, so a US visitor's list is of Europeans.
for (const js of [true, false]) {
  test.describe(`the map lander's heading with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("a US visitor is not told the Europeans listed are near them; a Dutch visitor is", async ({
      page,
      context,
      db,
    }) => {
      // A recently active US member with a photo: she is among the lander's members, never on its map.
      const us = await db.createMember({
        name: "Jenny",
        gender: "female",
        country: "US",
        city: "Austin",
        dateOfBirth: "1990-03-01",
      });
      await db.DB.batch([
        db.DB.prepare(
          "UPDATE profiles SET main_photo_id = (SELECT main_photo_id FROM profiles WHERE main_photo_id IS NOT NULL LIMIT 1), lat = 30.267, lon = -97.743 WHERE user_id = ?1",
        ).bind(us.id),
        db.DB.prepare("UPDATE users SET last_seen_at = unixepoch() + 60 WHERE id = ?1").bind(us.id),
      ]);
      await fromCountry(context, "localhost", "US");
      await page.goto("/landers/maplanding/general");
      const heading = page.locator(".ld-nearlist h2");
      await expect(heading).toHaveText("Recently active");
      // The map is a picture of this list, hidden from screen readers (valid HTML: no links inside an image).
      await expect(page.locator(".ld-map")).toHaveAttribute("aria-hidden", "true");

      await fromCountry(context, "localhost", "NL");
      await page.goto("/landers/maplanding/general");
      await expect(heading).toHaveText("Members near you in Netherlands");
    });
  });
}

test("the site's scripts and styles are fetched once: the next page uses them without asking again", async ({
  page,
}) => {
  // What the browser's network layer did for each of the page's own files (/build/): fetched or cached.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  let seen: { url: string; cached: boolean }[] = [];
  cdp.on("Network.responseReceived", ({ response }) => {
    if (new URL(response.url).pathname.startsWith("/build/"))
      seen.push({ url: response.url, cached: !!response.fromDiskCache });
  });
  await page.goto("/pages/terms");
  await page.waitForLoadState("networkidle");
  const first = seen;
  expect(first.length).toBeGreaterThan(5);
  expect(first.filter((f) => f.cached)).toEqual([]);
  // Fingerprinted files (their names change with their content) are kept for a year (public/_headers).
  const asset = await page.request.get(first[0]!.url);
  expect(asset.headers()["cache-control"]).toContain("immutable");

  seen = [];
  await page.goto("/pages/privacy");
  await page.waitForLoadState("networkidle");
  const again = seen.filter((f) => first.some((g) => g.url === f.url));
  expect(again.length).toBeGreaterThan(5);
  // Without the header each was asked for again (a 304 is still a round trip per file).
  expect(again.filter((f) => !f.cached)).toEqual([]);
});
