/**
 * Sign-up by confirmation link first (decision 224), as a visitor goes through it without JavaScript: a
 * new and a known address get the same page, the owner of the known one a way in; the mailed link's
 * button makes the account and logs in, once.
 */
import { expect, test } from "./support/fixtures";
import { shot } from "./support/shots";

test.use({ javaScriptEnabled: false });

async function submit(page: import("@playwright/test").Page, email: string) {
  await page.goto("/signup");
  const form = page.locator('main form[action^="/signup"]').first();
  await form.getByLabel("E-mail address").fill(email);
  await form.getByLabel("Username").fill(`Linked${Date.now().toString(36).slice(-5)}`);
  await form.getByLabel("Date of birth (18+)").fill("1990-04-02");
  await form.getByLabel("Password").fill("Demo-pass-2026");
  await form.getByRole("button", { name: "Sign up free" }).click();
  await expect(page).toHaveURL(/\/signup\/sent$/);
  return (await page.locator("main").innerText()).trim();
}

test("a new and a known address get the same page; the link makes the account once", async ({ page, db, baseURL }) => {
  await page.context().addCookies([{ name: "entry_ok", value: "1", url: baseURL! }]);
  const known = await db.createMember();
  const email = `e2e-link-${Date.now().toString(36)}@example.com`;

  const fresh = await submit(page, email);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your e-mail");
  await shot(page, "signup-sent");
  expect(await submit(page, known.email)).toBe(fresh);
  expect((await page.request.get("/api/user.php")).status()).toBe(401);

  await page.goto(`/dev/outbox?to=${encodeURIComponent(known.email)}`);
  await expect(page.locator(".outbox-subject").first()).toHaveText(
    "Someone tried to sign up at Amora with your e-mail address",
  );
  await page.goto(`/dev/outbox?to=${encodeURIComponent(email)}`);
  const link = await page.locator('a[href*="/signup/confirm?token="]').first().getAttribute("href");
  await page.goto(link!);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your account");
  await shot(page, "signup-confirm");
  await page.getByRole("button", { name: "Confirm and create my account" }).click();
  await expect(page).toHaveURL(/\/signup-matches$/);
  expect((await page.request.get("/api/user.php")).status()).toBe(200);

  const again = await page.goto(link!);
  expect(again!.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link does not work");
  await shot(page, "signup-confirm-spent");
});
