import { expect, test, type Page } from "@playwright/test";
import { createChatMember, disposeChatDb, login } from "./support/chat-db";
import { openE2eDb } from "./support/db";

test.afterAll(disposeChatDb);
test.describe.configure({ timeout: 60_000 });

const controlled = (page: Page) => page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 20_000 });

test("the service worker registers from the root and controls the page; offline navigations show the offline page", async ({ page, context }) => {
  await page.goto("/");
  await controlled(page);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope)).toBe(new URL("/", page.url()).href);
  await context.setOffline(true);
  await page.goto("/pages/faq").catch(() => {});
  await expect(page.getByTestId("offline-page")).toBeVisible();
  await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();
  await context.setOffline(false);
});

test("the push alert appears for a member, offers push, and stays dismissed", async ({ page }) => {
  const m = await createChatMember({ name: "Pia Push" });
  await login(page, m.email);
  await page.goto("/members");
  const alert = page.getByTestId("push-alert");
  await expect(alert).toBeVisible();
  await expect(alert.getByRole("button", { name: "Turn on notifications" })).toBeVisible();
  // Not on the screens SPEC section 4 excludes.
  await page.goto("/notifications");
  await expect(page.locator('[data-push-state="unknown"]')).toBeVisible();
  await expect(alert).toHaveCount(0);
  await page.goto("/members");
  await alert.getByRole("button", { name: "Not now" }).click();
  await expect(alert).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem("hide-push-notification-alert"))).toMatch(/^\d+$/);
  await page.reload();
  await expect(page.locator("body[data-hub]")).toBeAttached();
  await expect(alert).toHaveCount(0);
});

test("the disabled-notifications alert shows after a bounce, leads to /notifications, and stays dismissed", async ({ page }) => {
  const m = await createChatMember({ name: "Bo Bounce" });
  const db = await openE2eDb();
  await db.DB.prepare("INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, 'new_message', 'bounce')").bind(m.id).run();
  await login(page, m.email);
  await page.goto("/members");
  const alert = page.getByTestId("disabled-notifications-alert");
  await expect(alert).toBeVisible();
  await alert.getByRole("link", { name: "Check your settings" }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(alert).toHaveCount(0);
  await expect(page.locator(".alert-warning").first()).toBeVisible();
  await page.goto("/members");
  await alert.getByRole("button", { name: "Dismiss" }).click();
  await page.reload();
  await expect(page.locator("body[data-hub]")).toBeAttached();
  await expect(alert).toHaveCount(0);
});

test("installed mode (display-mode: standalone) shows the back button on profile, likes and credits, not elsewhere", async ({ page }) => {
  // Chromium's media emulation (CDP Emulation.setEmulatedMedia) ignores display-mode, and Playwright
  // cannot install the app: the page's matchMedia answers as an installed app's would.
  await page.addInitScript(() => {
    const real = window.matchMedia.bind(window);
    window.matchMedia = (q: string) =>
      /display-mode:\s*standalone/.test(q) ? ({ ...real("all"), matches: true, media: q } as MediaQueryList) : real(q);
  });
  const m = await createChatMember({ name: "Ina Installed" });
  await login(page, m.email);
  expect(await page.evaluate(() => matchMedia("(display-mode: standalone)").matches)).toBe(true);
  const back = page.getByRole("button", { name: "Back" });
  for (const path of ["/profile", "/likes", "/credits"]) {
    await page.goto(path);
    await expect(back).toBeVisible();
  }
  await page.goto("/members");
  await expect(page.locator("body[data-hub]")).toBeAttached();
  await expect(back).toHaveCount(0);
  // The back button goes back.
  await page.goto("/likes");
  await back.click();
  await expect(page).toHaveURL(/\/members$/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("push can be turned off on every device from /notifications; unsubscribe pages work with a plain form", async ({ page }) => {
    const m = await createChatMember({ name: "Nora NoJS" });
    const db = await openE2eDb();
    await db.DB.prepare("INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES (?1, ?2, 'k', 'a')")
      .bind(m.id, `https://push.example.net/${m.id}`).run();
    await db.DB.prepare("UPDATE users SET push_subscribed = 1 WHERE id = ?1").bind(m.id).run();
    await login(page, m.email);
    await page.goto("/notifications");
    await page.getByRole("button", { name: "Turn off on all devices" }).click();
    await expect(page.getByRole("button", { name: "Turn off on all devices" })).toHaveCount(0);
    expect(await db.DB.prepare("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?1").bind(m.id).first<number>("n")).toBe(0);
    await page.goto("/unsubscribe?u=nobody&t=news&s=00000000000000000000000000000000");
    await expect(page.getByText("This unsubscribe link is not valid.")).toBeVisible();
  });
});
