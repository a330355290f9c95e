/**
 * The way in (decision 130), as a visitor from a partner site goes through it: sign-up from every lander
 * kind on all three brands (Flirtlokaal with and without a traffic source), a failed sign-up that
 * shows its errors in view and keeps what was typed, and a new member's first screen on a phone.
 */
import { expect, test, type Page } from "@playwright/test";
import { clearSession } from "./support/fixtures";
import { SIGNUP_SENT, confirmSignupFromOutbox } from "./support/signup";

test.describe.configure({ timeout: 180_000 });

const port = Number(process.env.E2E_PORT ?? 8788);
const KINDS = [
  "alonetonight",
  "collagelanding",
  "gallery",
  "iconslanding",
  "maplanding",
  "socialnetwork",
  "transitionsvideolanding",
  "video",
  "tinderswipe",
];
const BRANDS = ["localhost", "de.localhost", "nl.localhost"];
const tag = () => Math.random().toString(36).slice(2, 8);
const PASSWORD = "Demo-pass-2026";

/** The lander's own sign-up form (not the header's or a modal's). */
const signupForm = (page: Page) => page.locator('main form[action^="/signup"]').first();

async function fill(page: Page, o: { name?: string; email?: string } = {}) {
  const form = signupForm(page);
  await form.locator('input[name="email"]').fill(o.email ?? `way-in-${tag()}@example.com`);
  await form.locator('input[name="name"]').fill(o.name ?? `Visitor${tag()}`);
  await form.locator('input[name="date_of_birth"]').fill("1990-04-02");
  await form.locator('input[name="password"]').fill(PASSWORD);
  return form;
}

for (const js of [true, false]) {
  test.describe(`JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    BRANDS.forEach((host, b) => {
      // Every lander kind on every brand, split over the two runs: each kind is signed up from on each brand once.
      const kinds = KINDS.filter((_, i) => (i + b) % 2 === (js ? 0 : 1));
      test(`sign-up from the landers on ${host}: ${kinds.join(", ")}`, async ({ page }) => {
        for (const kind of kinds) {
          const source = host === "nl.localhost" ? `?ref=partner-${kind}&sub1=e2e` : `?network=net-${kind}`;
          await clearSession(page);
          await page.goto(`http://${host}:${port}/landers/${kind}${source}`);
          await expect(page.locator(`[data-kind="${kind}"]`)).toBeVisible();
          const email = `way-in-${tag()}@example.com`;
          const form = await fill(page, { email });
          await Promise.all([page.waitForURL(SIGNUP_SENT), form.locator('button[type="submit"]').click()]);
          await confirmSignupFromOutbox(page, email);
        }
      });
    });

    test("Flirtlokaal without a traffic source shows no form and says why; the header has no sign-up button", async ({
      page,
    }) => {
      await page.goto(`http://nl.localhost:${port}/landers/gallery?sub1=campaign-only`);
      await expect(page.getByTestId("signup-closed")).toBeVisible();
      await expect(page.locator('form[action^="/signup"]')).toHaveCount(0);
      await expect(page.locator(".signup-button")).toHaveCount(0);
    });

    test(`a failed sign-up shows its error in view${js ? " and keeps everything typed" : ""}`, async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/landers/gallery?network=e2e");
      const form = await fill(page, { name: "@not-allowed" });
      // A click before hydration posts the plain form: wait so the JavaScript run tests the fetcher.
      if (js) await page.waitForFunction(() => "__remixRouter" in window);
      await form.locator('button[type="submit"]').click();
      const summary = page.getByTestId("signup-errors");
      await expect(summary).toContainText("Username may not start with @");
      await expect(summary).toBeInViewport();
      if (js) {
        // The form posted through its fetcher: same page, the password and the other fields still there.
        await expect(page).toHaveURL(/\/landers\/gallery/);
        await expect(summary).toBeFocused();
        await expect(form.locator('input[name="password"]')).toHaveValue(PASSWORD);
        await expect(form.locator('input[name="name"]')).toHaveValue("@not-allowed");
      } else {
        // Without JavaScript /signup answers: the values come back, a password never does.
        await expect(page).toHaveURL(/\/signup/);
        await expect(page.locator('input[name="name"]')).toHaveValue("@not-allowed");
        await expect(page.locator('input[name="password"]')).toHaveValue("");
      }
    });

    test("a new member's /members on a phone shows a profile on the first screen; filters open on demand", async ({
      page,
    }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto("/signup");
      const form = page.locator('main form[action^="/signup"]').first();
      const email = `phone-${tag()}@example.com`;
      await form.locator('input[name="email"]').fill(email);
      await form.locator('input[name="name"]').fill(`Phone${tag()}`);
      await form.locator('input[name="date_of_birth"]').fill("1990-04-02");
      await form.locator('input[name="password"]').fill(PASSWORD);
      await Promise.all([page.waitForURL(SIGNUP_SENT), form.locator('button[type="submit"]').click()]);
      await confirmSignupFromOutbox(page, email);
      await page.goto("/members");
      await expect(page.locator(".member-card").first()).toBeInViewport();
      await expect(page.locator('select[name="country"]')).toBeHidden();
      await page.locator(".search-filters > summary").click();
      await expect(page.locator('select[name="country"]')).toBeVisible();
      // The region list follows the chosen country: at once with JavaScript, on submit without.
      const carinthia = page.locator('select[name="countryregion"] option', { hasText: "Carinthia" });
      if (js) {
        // A choice made before the page has hydrated is reset by hydration (a slow machine): choose again.
        await expect(async () => {
          await page.locator('select[name="country"]').selectOption("AT");
          await expect(carinthia).toHaveCount(1, { timeout: 2_000 });
        }).toPass();
      } else {
        await page.locator('select[name="country"]').selectOption("AT");
        await Promise.all([page.waitForURL(/country=AT/), page.locator('.search-form button[type="submit"]').click()]);
        await page.locator(".search-filters > summary").click();
      }
      await expect(carinthia).toHaveCount(1);
      await expect(page.locator('select[name="countryregion"] option', { hasText: "Bavaria" })).toHaveCount(0);
    });
  });
}

/**
 * A busy phone: the browser runs input before other waiting tasks, so a visitor's typing can come
 * between hydrateRoot and React's first render (a task React's scheduler posts on a MessageChannel).
 * The init script holds those tasks back until the test releases them: the same moment on every run.
 */
async function holdTasks(page: Page) {
  await page.addInitScript(() => {
    const post = MessagePort.prototype.postMessage;
    const held: Array<() => void> = [];
    let released = false;
    MessagePort.prototype.postMessage = function (this: MessagePort, ...args: Parameters<MessagePort["postMessage"]>) {
      if (released) return post.apply(this, args);
      held.push(() => post.apply(this, args));
    } as MessagePort["postMessage"];
    Object.assign(window, {
      releaseTasks() {
        released = true;
        for (const f of held.splice(0)) f();
      },
    });
  });
}

// Decision 192: typing in that moment made React hydrate the whole page at once; Remix's root suspended
// there (single fetch decodes the loaders' data on its first render) with no boundary above it, React
// threw error 345 and the page never hydrated (it stayed a form without JavaScript).
for (const [where, path, form] of [
  ["the sign-up page", "/signup", 'main form[action^="/signup"]'],
  ["the login page", "/login", 'main form[action^="/login"]'],
  ["the landing page's sign-up", "/", "#landing-signup"],
  ["a lander's sign-up", "/landers/gallery?network=e2e", 'main form[action^="/signup"]'],
] as const) {
  test(`typing into ${where} before React's first render: the page still hydrates`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: "entry_ok", value: "1", url: baseURL! }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await holdTasks(page);
    await page.goto(path);
    // hydrateRoot has been called (it marks the document as its container); the render waits.
    await page.waitForFunction(() => Object.keys(document).some((key) => key.startsWith("__reactContainer$")));
    const email = page.locator(form).locator('input[name="email"]');
    const typed = `early-${tag()}@example.com`;
    await email.fill(typed);
    await page.evaluate(() => (window as unknown as { releaseTasks(): void }).releaseTasks());
    // Hydrated (Remix's router is there), and no error on the way (a failure shows it here).
    await expect.poll(async () => errors.join("\n") || page.evaluate(() => "__remixRouter" in window)).toBe(true);
    // The field itself is React's now (hydrated), and keeps what was typed.
    await expect
      .poll(() => email.evaluate((input) => Object.keys(input).some((key) => key.startsWith("__reactFiber"))))
      .toBe(true);
    await expect(email).toHaveValue(typed);
    expect(errors).toEqual([]);
    await context.close();
  });
}
