import { AxeBuilder } from "@axe-core/playwright";
import { expect, test } from "./support/fixtures";

/** Every lander (LANDER_KINDS in app/models/landers.server.ts). */
const LANDERS = [
  "alonetonight",
  "collagelanding",
  "gallery",
  "iconslanding",
  "maplanding",
  "socialnetwork",
  "transitionsvideolanding",
  "video",
  "tinderswipe",
].map((kind) => `/landers/${kind}`);

/** Every supporting page, with a word of its English title. */
const STATIC_PAGES = [
  ["/pages/cookies", "Cookie policy"],
  ["/pages/privacy", "Privacy statement"],
  ["/pages/terms", "Terms and conditions"],
  ["/pages/faq", "Frequently asked questions"],
  ["/pages/return-policy", "Returns and refunds"],
  ["/pages/service", "Customer service"],
  ["/pages/ban", "Access ban"],
  ["/complaints", "Complaints"],
  ["/pricing", "Pricing"],
] as const;

for (const javaScriptEnabled of [true, false]) {
  test.describe(`static pages, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    for (const [path, title] of STATIC_PAGES) {
      test(`${path} renders`, async ({ page }) => {
        const errors: string[] = [];
        page.on("console", (m) => {
          if (m.type() === "error") errors.push(m.text());
        });
        page.on("pageerror", (e) => errors.push(e.message));
        const res = await page.goto(path);
        expect(res?.status()).toBe(200);
        await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
        await expect(page.locator("footer")).toBeVisible();
        await page.waitForLoadState("networkidle");
        // Hydration mismatches and script errors show up here.
        expect(errors).toEqual([]);
      });
    }

    test("the FAQ opens an answer", async ({ page }) => {
      await page.goto("/pages/faq");
      const item = page.getByRole("main").locator("details").first();
      await expect(item.locator("p")).toBeHidden();
      await item.locator("summary").click();
      await expect(item.locator("p")).toBeVisible();
    });

    test("the footer leads to every supporting page", async ({ page }) => {
      await page.goto("/pages/terms");
      await page.locator("footer").getByRole("link", { name: "Customer service" }).click();
      await expect(page).toHaveURL(/\/pages\/service$/);
      await expect(page.getByTestId("support-phone")).toHaveAttribute("href", "tel:+31201234567");
    });

    test("a brand's pages speak its language", async ({ page }) => {
      await page.goto("http://de.localhost:" + new URL(test.info().project.use.baseURL!).port + "/pages/return-policy");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Rückgabe und Erstattung");
      await expect(page.locator("html")).toHaveAttribute("lang", "de");
    });

    test("a free member is sent from repeat order to premium", async ({ page, db }) => {
      // The test's own free member: a failed login fails the test (it never skips itself).
      const free = await db.createMember({ paidUser: false });
      await page.goto("/credits/repeat-order");
      await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcredits%2Frepeat-order/);
      await page.getByLabel("E-mail").fill(free.email);
      await page.getByLabel("Password").fill(free.password);
      await page.getByRole("button", { name: "Log in" }).click();
      await expect(page).toHaveURL(/\/credits\/repeat-order$/);
      await expect(page.getByTestId("premium-only")).toBeVisible();
      await page.getByRole("main").getByRole("link", { name: "Get Premium" }).click();
      await expect(page).toHaveURL(/\/premium$/);
      await expect(page.getByTestId("benefits")).toBeVisible();
    });

    test("a lander shows its sign-up form", async ({ page }) => {
      await page.goto("/landers/tinderswipe");
      const form = page.locator('form[action="/signup"]');
      await expect(form.getByLabel("E-mail address")).toBeVisible();
      await expect(form.getByLabel(/Date of birth/)).toBeVisible();
    });
  });
}

test("a page whose strings fail to load once still gets its JavaScript", async ({ page }) => {
  // Hydration waits for the page's strings; one lost request must not leave the page without JavaScript.
  let failed = 0;
  await page.route("**/locales/en/common", (route) =>
    failed++ === 0 ? route.abort("connectionreset") : route.continue(),
  );
  await page.goto("/pages/faq");
  await page.waitForFunction(() => "__remixRouter" in window);
  expect(failed).toBe(2);
});

test.describe("accessibility", () => {
  // axe on a lander full of pictures takes a while on a busy machine: a bound, not a speed requirement.
  test.describe.configure({ timeout: 90_000 });
  // Readers see the page while it animates too: no animation may draw text half-transparent.
  for (const path of LANDERS) {
    test(`${path} never fades text in or out`, async ({ page }) => {
      await page.goto(path);
      const fading = await page.evaluate(() =>
        document.getAnimations().flatMap((a) => {
          const effect = a.effect as KeyframeEffect | null;
          const target = effect?.target as HTMLElement | null | undefined;
          if (!effect || !target?.innerText?.trim()) return [];
          const fades = effect.getKeyframes().some((k) => k.opacity !== undefined && Number(k.opacity) < 1);
          return fades ? [`${(a as CSSAnimation).animationName} on ${target.className}`] : [];
        }),
      );
      expect(fading).toEqual([]);
    });
  }

  for (const path of [...STATIC_PAGES.map(([p]) => p), "/landers/tinderswipe", "/landers/alonetonight"]) {
    test(`${path} has no serious or critical axe violations`, async ({ page }) => {
      await page.goto(path);
      // Checked on the settled page: entrance animations (finite ones) have run to their end.
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
            .map((a) => a.finished),
        ),
      );
      const { violations } = await new AxeBuilder({ page }).analyze();
      const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    });
  }
});
