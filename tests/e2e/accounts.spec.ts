import type { Page } from "@playwright/test";
import { expect, test, logIn } from "./support/fixtures";

/**
 * Member journeys of the accounts area, once with JavaScript and once without: every form must work
 * both ways. Each test signs up its own member (the demo accounts are not relied on).
 */
const PASSWORD = "Demo-pass-2026";
let n = 0;
const uniqueEmail = (tag: string, js: boolean) =>
  `e2e-${tag}-${js ? "js" : "nojs"}-${Date.now().toString(36)}-${++n}@example.com`;

/** The adult-content entry warning is not what these tests are about. */
async function skipSiteEntry(page: Page, baseURL: string | undefined) {
  await page.context().addCookies([{ name: "entry_ok", value: "1", url: baseURL! }]);
}

/** The sign-up form's post: "check your e-mail", for a new and a known address alike (decision 224). */
async function submitSignup(page: Page, email: string, name: string) {
  await page.goto("/signup");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Username").fill(name);
  await page.getByLabel("Date of birth (18+)").fill("1991-03-04");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.locator("main").getByRole("button", { name: "Sign up free" }).click();
  await expect(page).toHaveURL(/\/signup\/sent$/);
  await expect(page.getByRole("heading", { name: "Check your e-mail" })).toBeVisible();
}

/** Signs up through the form and the mailed link, which logs in and continues to the first step. */
async function signUp(page: Page, email: string, name: string) {
  await submitSignup(page, email, name);
  expect(await loggedIn(page)).toBe(false);
  await confirmFromOutbox(page, email);
}

async function confirmFromOutbox(page: Page, email: string) {
  await followMailedLink(page, email, "/signup/confirm");
  await page.getByRole("button", { name: "Confirm and create my account" }).click();
  await expect(page).toHaveURL(/\/signup-matches$/);
}

/** Opens the newest mail to `email` in the development outbox and follows its link to `path`. */
async function followMailedLink(page: Page, email: string, path: string) {
  await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
  await page.locator(`article[data-to="${email}"]`).first().locator(`a[href*="${path}?token="]`).click();
}

/** The top bar's account menu (by structure: its labels are in the member's language). */
async function logOutFromMenu(page: Page, js: boolean) {
  if (!(await page.locator("details.account-menu").count())) await page.goto("/settings");
  if (js) await hydrated(page);
  await page.locator("details.account-menu > summary").click();
  await page.locator("details.account-menu form[action='/api/logout.php'] button").click();
  await expect(page).toHaveURL(/\/$/);
}

/** With JavaScript: wait until Remix has hydrated, so a click is not lost to a re-render. */
async function hydrated(page: Page) {
  await page.waitForFunction(() => "__remixRouter" in window);
}

async function loggedIn(page: Page) {
  return (await page.request.get("/api/user.php")).status() === 200;
}

for (const js of [true, false]) {
  test.describe(`accounts with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });
    test.describe.configure({ timeout: 60_000 }); // whole journeys, on a shared machine
    test.beforeEach(async ({ page, baseURL }) => skipSiteEntry(page, baseURL));

    test("sign up → confirm from the outbox → log out → the known address signs up again → log in → change language → log out", async ({
      page,
    }) => {
      const email = uniqueEmail("journey", js);
      await signUp(page, email, `Journey${n}`);
      expect(await loggedIn(page)).toBe(true);
      // The link is spent: a second click is refused, nothing changes.
      await followMailedLink(page, email, "/signup/confirm");
      await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();

      await logOutFromMenu(page, js);
      expect(await loggedIn(page)).toBe(false);

      // The same answer for the known address; its owner gets the way in, not a second account (decision 224).
      await submitSignup(page, email, `Again${n}`);
      expect(await loggedIn(page)).toBe(false);
      await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
      const newest = page.locator(`article[data-to="${email}"]`).first();
      await expect(newest.locator(".outbox-subject")).toHaveText(
        "Someone tried to sign up at Amora with your e-mail address",
      );
      await expect(newest.locator('a[href*="/reset-password"]').first()).toBeVisible();

      await page.goto("/login?redirectTo=%2Fsettings");
      await page.getByLabel("E-mail address").fill(email);
      await page.getByLabel("Password").fill("wrong-password");
      await page.locator("main").getByRole("button", { name: "Log in" }).click();
      await expect(page.getByText("Login failed, please try again")).toBeVisible();
      await page.getByLabel("Password").fill(PASSWORD);
      await page.locator("main").getByRole("button", { name: "Log in" }).click();
      await expect(page).toHaveURL(/\/settings$/);

      await page.getByLabel("Language of the site and your e-mails").selectOption("de");
      await page.locator("#language").getByRole("button").click();
      await expect(page.getByRole("heading", { name: "Einstellungen", level: 1 })).toBeVisible();

      await logOutFromMenu(page, js);
      expect(await loggedIn(page)).toBe(false);
    });

    test("password reset", async ({ page }) => {
      const email = uniqueEmail("reset", js);
      await signUp(page, email, `Reset${n}`);
      await logOutFromMenu(page, js);

      await page.goto("/reset-password");
      await page.getByLabel("E-mail address").fill(`nobody-${email}`);
      await page.locator("main").getByRole("button", { name: "Send the link" }).click();
      // An unknown address answers as a known one does (decision 202).
      const sent = "If an account exists for this address, we have sent it a link to choose a new password.";
      await expect(page.getByText(sent)).toBeVisible();
      // The answer empties the field (conform's resetForm, an effect after the answer shows): typed before
      // that, the address is wiped and the form refuses to post.
      await expect(page.getByLabel("E-mail address")).toHaveValue("");
      await page.getByLabel("E-mail address").fill(email);
      // The answer is already on the page from the first address: wait for this post's own response, or
      // the outbox's page load below can cut it off before the server has it.
      await Promise.all([
        page.waitForResponse(
          (r) => r.request().method() === "POST" && /^\/reset-password(\.data)?$/.test(new URL(r.url()).pathname),
        ),
        page.locator("main").getByRole("button", { name: "Send the link" }).click(),
      ]);
      await expect(page.getByText(sent)).toBeVisible();

      await followMailedLink(page, email, "/reset-password/do");
      await page.getByLabel("New password", { exact: true }).fill("New-pass-2027");
      await page.getByLabel("Repeat the new password").fill("Not-the-same-1");
      await page.getByRole("button", { name: "Save the new password" }).click();
      await expect(page.getByText("The entered passwords are not the same.")).toBeVisible();
      await page.getByLabel("New password", { exact: true }).fill("New-pass-2027");
      await page.getByLabel("Repeat the new password").fill("New-pass-2027");
      await page.getByRole("button", { name: "Save the new password" }).click();
      await expect(page).toHaveURL(/\/members$/);
      expect(await loggedIn(page)).toBe(true);
    });

    test("change e-mail: a taken address answers as a free one → the link changes it → the old address undoes it (decision 238)", async ({
      page,
      db,
    }) => {
      const email = uniqueEmail("move", js);
      await signUp(page, email, `Moving${n}`);
      const owner = await db.createMember();
      const fresh = uniqueEmail("moved", js);
      const sent = "We have sent a confirmation link to your new e-mail address.";
      for (const address of [owner.email, fresh]) {
        await page.goto("/settings");
        if (js) await hydrated(page);
        const form = page.locator("form#email");
        await form.getByLabel("New e-mail address").fill(address);
        await form.getByLabel("Current password").fill(PASSWORD);
        await form.getByRole("button", { name: "Change e-mail address" }).click();
        await expect(form.getByText(sent)).toBeVisible();
        await expect(page.getByText("already owns an account")).toHaveCount(0);
      }
      await followMailedLink(page, fresh, "/mail-change/do");
      await page.getByRole("button", { name: "Confirm the new address" }).click();
      await expect(page.getByText("Your e-mail address has been changed.")).toBeVisible();
      // The old address is told now, with the undo link.
      await followMailedLink(page, email, "/mail-change/undo");
      await page.getByRole("button", { name: "Undo the change" }).click();
      await expect(page.getByText("Your previous e-mail address is back")).toBeVisible();
    });

    test("delete → reactivate", async ({ page }) => {
      const email = uniqueEmail("delete", js);
      await signUp(page, email, `Leaving${n}`);
      await page.goto("/settings");
      await page.getByRole("link", { name: "Delete my account" }).click();
      await expect(page.getByRole("heading", { name: "Privacy mode" })).toBeVisible();
      await page.getByRole("link", { name: "No thanks, continue deleting my account" }).click();
      await page.getByLabel("I found someone").check();
      await page.getByLabel("Remarks (optional)").fill("Thanks for everything");
      await page.getByRole("button", { name: "Delete my account" }).click();
      await expect(page).toHaveURL(/\/account-deleted$/);
      expect(await loggedIn(page)).toBe(false);

      await followMailedLink(page, email, "/reactivate");
      await page.getByRole("button", { name: "Reactivate my account" }).click();
      await expect(page).toHaveURL(/\/members\?reactivated=1$/);
      expect(await loggedIn(page)).toBe(true);
    });
  });
}

/** How far below the sticky top bar an element starts (negative: hidden under it or above the screen). */
const belowTopBar = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const bar = document.querySelector(".topbar")!.getBoundingClientRect().bottom;
    return document.querySelector(sel)!.getBoundingClientRect().top - bar;
  }, selector);

test.describe("sign-up on a phone: an invalid field is never under the sticky top bar (decision 179)", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test.beforeEach(async ({ page, baseURL }) => skipSiteEntry(page, baseURL));

  for (const js of [true, false]) {
    test(`submitted from the bottom with an empty e-mail, JavaScript ${js ? "on" : "off"}`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled: js, viewport: { width: 390, height: 844 } });
      await context.addCookies([{ name: "entry_ok", value: "1", url: baseURL! }]);
      const page = await context.newPage();
      await page.goto(`${baseURL}/signup`);
      const main = page.locator("main");
      await main.getByLabel("Username").fill("Scroller");
      await main.getByLabel("Date of birth (18+)").fill("1991-03-04");
      await main.getByLabel("Password").fill(PASSWORD);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await main.getByRole("button", { name: "Sign up free" }).click();
      // The browser (or the re-rendered page) shows the e-mail field with its label below the bar.
      await expect(main.getByText("Invalid email").first()).toBeVisible();
      expect(await belowTopBar(page, 'main label[for$="email"]')).toBeGreaterThanOrEqual(0);
      await context.close();
    });
  }

  test("a field or error summary scrolled to its top (a #link, a browser that aligns to the top) lands below the bar", async ({
    page,
  }) => {
    await page.goto("/signup");
    await page.locator('main input[name="password"]').evaluate((el) => el.scrollIntoView());
    expect(await belowTopBar(page, 'main label[for$="password"]')).toBeGreaterThanOrEqual(0);
    await page
      .locator("main .field")
      .first()
      .evaluate((el) => el.scrollIntoView());
    expect(await belowTopBar(page, "main .field")).toBeGreaterThanOrEqual(0);
  });
});

test.describe("sign-up modal", () => {
  test.beforeEach(async ({ page, baseURL }) => skipSiteEntry(page, baseURL));

  test("opens from a sign-up link, closes with Escape when idle, and signs up", async ({ page }) => {
    await page.goto("/login");
    await hydrated(page);
    await page.getByRole("link", { name: "No account yet? Sign up free" }).click();
    const dialog = page.getByRole("dialog", { name: "Sign up free" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();

    await page.getByRole("link", { name: "No account yet? Sign up free" }).click();
    const email = uniqueEmail("modal", true);
    await dialog.getByLabel("E-mail address").fill(email);
    await dialog.getByLabel("Username").fill("@modal");
    await dialog.getByLabel("Date of birth (18+)").fill("1990-01-01");
    await dialog.getByLabel("Password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Sign up free" }).click();
    await expect(dialog.getByText("Username may not start with @")).toBeVisible();
    await dialog.getByLabel("Username").fill("Modal Member");
    // Hold the sign-up post: while it is in flight, Escape and the backdrop must not close the dialog.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/signup*", async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Sign up free" }).click();
    await expect(dialog).toHaveAttribute("data-busy", "true");
    await page.keyboard.press("Escape");
    await page.mouse.click(5, 5); // the backdrop
    await expect(dialog).toBeVisible();
    release();
    await expect(page).toHaveURL(/\/signup\/sent$/);
    expect(await loggedIn(page)).toBe(false);
    await confirmFromOutbox(page, email);
    expect(await loggedIn(page)).toBe(true);
  });
});

test.describe("activation reminder", () => {
  test.beforeEach(async ({ page, baseURL }) => skipSiteEntry(page, baseURL));

  // A member not confirmed yet: one from before sign-up by link (decision 224); a new sign-up is confirmed by its link.
  test("is an alert, and a modal on a phone right after the sign-up API", async ({ page, db }) => {
    await logIn(page, await db.createMember({ status: "not_confirmed", profileStatus: "disabled" }));
    await page.goto("/activate/resend");
    await expect(page.getByTestId("activation-reminder")).toContainText("Please confirm your e-mail address.");

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/activate/resend?api_signup_complete=1");
    const modal = page.getByRole("dialog", { name: "Please confirm your e-mail address." });
    await expect(modal).toBeVisible();
    await modal.getByRole("button", { name: "OK" }).click();
    await expect(modal).toBeHidden();
  });
});

test.describe("accessibility of the account forms", () => {
  test.beforeEach(async ({ page, baseURL }) => skipSiteEntry(page, baseURL));

  for (const path of ["/login", "/signup", "/reset-password"]) {
    test(`${path} has no serious axe violations`, async ({ page }) => {
      const { default: AxeBuilder } = await import("@axe-core/playwright");
      await page.goto(path);
      await hydrated(page);
      const { violations } = await new AxeBuilder({ page }).include("main").analyze();
      expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    });
  }
});
