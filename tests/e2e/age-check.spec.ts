import { readFileSync } from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { E2E_PORT, e2eDb } from "./support/db";
import { SIGNUP_SENT, confirmSignupFromOutbox } from "./support/signup";
import { login } from "./support/login";
import { shot } from "./support/shots";

/**
 * Age assurance (decision 185): Herzklang (de.localhost) asks visitors from FR a proof of 18+ before
 * the members area. The demo member age@example.com logs in, is asked, answers with the development
 * wallet and lands where they were going; with JavaScript and without; an "under 18" answer is refused
 * with its reason after Continue.
 */
test.describe.configure({ mode: "serial" }); // one demo member, reset before each run
const HERZKLANG = `http://de.localhost:${E2E_PORT}`;
const AGE_MEMBER = { email: "age@example.com", password: "Demo-pass-2026" };

const db = e2eDb();
test.beforeEach(async () => {
  // The demo member starts unverified every run.
  await db.DB.prepare("DELETE FROM age_proofs WHERE subject = (SELECT id FROM users WHERE email = ?1)")
    .bind(AGE_MEMBER.email)
    .run();
});

/** Script errors of each page (hydration errors among them), from its first load. */
const pageErrors = new WeakMap<Page, string[]>();

async function fromFrance(browser: Browser, js: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: js });
  await context.addCookies([
    { name: "entry_ok", value: "1", url: HERZKLANG },
    { name: "dev_country", value: "FR", url: HERZKLANG },
  ]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`${page.url()}: ${e.message}`));
  pageErrors.set(page, errors);
  await login(page, AGE_MEMBER.email, AGE_MEMBER.password, HERZKLANG);
  return page;
}

/** The page's own texts, in the language it is shown in. */
async function ageTexts(page: Page) {
  const lng = (await page.locator("html").getAttribute("lang")) ?? "en";
  return JSON.parse(readFileSync(`locales/${lng}/age.json`, "utf8")) as {
    title: string;
    devWallet: string;
    refused: Record<string, string>;
  };
}

async function askedForMembers(page: Page) {
  await page.goto(`${HERZKLANG}/members`);
  await expect(page).toHaveURL(`${HERZKLANG}/age-check?next=%2Fmembers`);
  const t = await ageTexts(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.title);
  return t;
}

/**
 * With JavaScript: the page has hydrated without a script error. The member's socket opens in an
 * effect (body[data-hub]), so only once hydration is over, whether it failed or not.
 */
async function hydratedCleanly(page: Page) {
  await expect(page.locator("body[data-hub]")).toHaveCount(1);
  expect(pageErrors.get(page)).toEqual([]);
}

async function answerWithWallet(page: Page, t: { devWallet: string }, answer: string, js = false) {
  await page.getByRole("link", { name: t.devWallet }).click();
  await expect(page).toHaveURL(/\/dev\/age-wallet\?/);
  // The wallet page's hydration failed on a value imported from a .server module (undefined in the
  // browser): the 500 view replaced the form, and Send never posted.
  if (js) await hydratedCleanly(page);
  await expect(page.locator('textarea[name="request"]')).toHaveValue(/^av:\/\/\?client_id=redirect_uri%3A/);
  await page.locator(`input[name="answer"][value="${answer}"]`).check();
  await page.getByRole("button", { name: "Send to the site" }).click();
}

for (const js of [true, false]) {
  test(`a visitor from FR logs in on Herzklang, proves 18+ with the wallet and lands in the members area${js ? "" : " (no JavaScript)"}`, async ({
    browser,
  }) => {
    const page = await fromFrance(browser, js);
    const t = await askedForMembers(page);
    await expect(page.locator(".age-qr-code svg")).toBeVisible(); // desktop: the QR code
    if (js) await hydratedCleanly(page); // the Digital Credentials option decides in an effect, not in render
    if (js) await shot(page, "age-check");
    await answerWithWallet(page, t, "valid", js);
    await expect(page.locator('[data-status="200"]')).toContainText("Accepted by the site.");
    await page.getByRole("link", { name: "Return to the site" }).click();
    await expect(page).toHaveURL(`${HERZKLANG}/members`);
    // The proof holds on the next page too.
    await page.goto(`${HERZKLANG}/likes`);
    await expect(page).not.toHaveURL(/age-check/);
    await page.context().close();
  });
}

test("a visitor from FR signs up on Herzklang, is asked before the members area, proves 18+ and lands where sign-up led", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.addCookies([
    { name: "entry_ok", value: "1", url: HERZKLANG },
    { name: "dev_country", value: "FR", url: HERZKLANG },
  ]);
  const page = await context.newPage();
  await page.goto(`${HERZKLANG}/signup`);
  const form = page.locator('main form[action^="/signup"]').first();
  const tag = Date.now().toString(36);
  const email = `e2e-age-signup-${tag}@example.com`;
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="name"]').fill(`Alter${tag}`);
  await form.locator('input[name="date_of_birth"]').fill("1990-04-02");
  await form.locator('input[name="password"]').fill(AGE_MEMBER.password);
  await form.locator('button[type="submit"]').click();
  // Sign-up, its answer and its mailed link are open; where the link leads is the members area, so the check comes first.
  await expect(page).toHaveURL(SIGNUP_SENT);
  await confirmSignupFromOutbox(page, email, /\/age-check\?next=%2F/);
  const next = decodeURIComponent(new URL(page.url()).searchParams.get("next")!);
  const t = await ageTexts(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.title);
  await answerWithWallet(page, t, "valid");
  await page.getByRole("link", { name: "Return to the site" }).click();
  await expect(page).toHaveURL(`${HERZKLANG}${next}`);
  await page.goto(`${HERZKLANG}/members`);
  await expect(page).toHaveURL(`${HERZKLANG}/members`);
  await context.close();
});

test("an under-18 answer is refused and the member is told why on return", async ({ browser }) => {
  const page = await fromFrance(browser, false);
  const t = await askedForMembers(page);
  await answerWithWallet(page, t, "under_18");
  await expect(page.locator('[data-status="400"]')).toContainText("under_18");
  await page.getByRole("link", { name: "Return to the site" }).click();
  await expect(page).toHaveURL(`${HERZKLANG}/age-check?next=%2Fmembers`);
  // Back from the app: the page says why, and shows a fresh request to try again.
  await expect(page.locator(".alert-danger")).toContainText(t.refused.under_18!);
  await shot(page, "age-check-refused");
  // Still not in.
  await page.goto(`${HERZKLANG}/members`);
  await expect(page).toHaveURL(/\/age-check\?next=/);
  await page.context().close();
});

/** The page's own texts for the Digital Credentials API option and the cookie notice. */
async function moreTexts(page: Page) {
  const lng = (await page.locator("html").getAttribute("lang")) ?? "en";
  return JSON.parse(readFileSync(`locales/${lng}/age.json`, "utf8")) as {
    dcButton: string;
    dcRefused: string;
    cookies: string;
    cookiesRetry: string;
  };
}

test("without the Digital Credentials API the page offers the QR code and the app link as before", async ({
  browser,
}) => {
  const page = await fromFrance(browser, true);
  await page.addInitScript(() => {
    delete (window as { DigitalCredential?: unknown }).DigitalCredential;
  });
  await askedForMembers(page);
  await page.reload(); // the init script applies from this load on
  await expect(page.locator(".age-qr-code svg")).toBeVisible();
  await expect(page.getByTestId("age-dc")).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.locator(".age-link a[href^='av://']")).toBeVisible();
  await page.context().close();
});

test("with the API, the wallet on this device is offered first; a refusal falls back to the QR code and the link", async ({
  browser,
}) => {
  const page = await fromFrance(browser, true);
  await page.addInitScript(() => {
    // A browser with the API whose wallet declines (the user closed the prompt).
    // oxlint-disable-next-line typescript/no-extraneous-class -- stands in for the browser's class, static member and all
    (window as { DigitalCredential?: unknown }).DigitalCredential = class {
      static userAgentAllowsProtocol(protocol: string) {
        return protocol === "org-iso-mdoc";
      }
    };
    const asked: unknown[] = [];
    (window as { dcAsked?: unknown[] }).dcAsked = asked;
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      asked.push(options);
      return Promise.reject(new DOMException("declined", "NotAllowedError"));
    };
  });
  await askedForMembers(page);
  await page.reload();
  const t = await moreTexts(page);
  const button = page.getByRole("button", { name: t.dcButton });
  await expect(button).toBeVisible();
  await shot(page, "age-check-dc");
  await button.click();
  await expect(page.getByRole("status").filter({ hasText: t.dcRefused })).toBeVisible();
  // The request handed to the API: ISO 18013-7 Annex C, org-iso-mdoc, DeviceRequest and EncryptionInfo.
  const asked = (await page.evaluate(() => (window as { dcAsked?: unknown[] }).dcAsked)) as {
    digital: { requests: { protocol: string; data: { deviceRequest: string; encryptionInfo: string } }[] };
  }[];
  expect(asked).toHaveLength(1);
  expect(asked[0]!.digital.requests[0]!.protocol).toBe("org-iso-mdoc");
  expect(asked[0]!.digital.requests[0]!.data.deviceRequest).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(asked[0]!.digital.requests[0]!.data.encryptionInfo).toMatch(/^[A-Za-z0-9_-]+$/);
  await expect(page.locator(".age-qr-code svg")).toBeVisible();
  await expect(page).toHaveURL(/\/age-check\?next=/);
  await page.context().close();
});

test("a browser that refuses cookies is told the check needs one instead of looping", async ({ browser }) => {
  const context = await browser.newContext();
  await context.addCookies([
    { name: "entry_ok", value: "1", url: HERZKLANG },
    { name: "dev_country", value: "FR", url: HERZKLANG },
  ]);
  const page = await context.newPage();
  // The visitor cookie never comes back: drop every Set-Cookie of the age check.
  await page.route(/\/age-check/, async (route) => {
    // Node does not resolve *.localhost as Chromium does: fetch from 127.0.0.1 with the brand's Host.
    const url = new URL(route.request().url());
    const response = await route.fetch({
      url: `http://127.0.0.1:${url.port}${url.pathname}${url.search}`,
      headers: { ...route.request().headers(), host: url.host },
      maxRedirects: 0,
    });
    const headers = { ...response.headers() };
    delete headers["set-cookie"];
    await route.fulfill({ response, headers });
  });
  await page.goto(`${HERZKLANG}/age-check?next=%2Fmembers`);
  await expect(page).toHaveURL(`${HERZKLANG}/age-check?next=%2Fmembers&c=1`);
  const t = await moreTexts(page);
  await expect(page.getByRole("alert")).toHaveText(t.cookies);
  await expect(page.getByRole("link", { name: t.cookiesRetry })).toHaveAttribute("href", "/age-check?next=%2Fmembers");
  await shot(page, "age-check-cookies");
  await context.close();
});
