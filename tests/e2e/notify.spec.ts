import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { createChatMember } from "./support/chat-db";
import { stopClock } from "./support/clock";

const controlled = (page: Page) =>
  page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 20_000 });

test("the service worker registers from the root and controls the page; offline navigations show the offline page", async ({
  page,
  context,
}) => {
  await page.goto("/");
  await controlled(page);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.scope)).toBe(
    new URL("/", page.url()).href,
  );
  await context.setOffline(true);
  await page.goto("/pages/faq").catch(() => {});
  await expect(page.getByTestId("offline-page")).toBeVisible();
  await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();
  await context.setOffline(false);
});

test(
  "the push alert appears when someone has written, offers push, and stays dismissed",
  { tag: "@full-browser" },
  async ({ page, db }) => {
    const m = await createChatMember({ name: "Pia Push" });
    // Push is asked at a moment that explains it (decision 179): here, an unread message.
    const writer = await createChatMember({ name: "Wim Writer" });
    await db.conversation(m.id, writer.id, { unread: 1 });
    await logIn(page, m);
    await page.goto("/members");
    const alert = page.getByTestId("push-alert");
    await expect(alert).toBeVisible();
    await expect(alert.getByRole("button", { name: "Turn on notifications" })).toBeVisible();
    // Not on the screens docs/product/states.md §4 excludes.
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
  },
);

test("the disabled-notifications alert shows after a bounce, leads to /notifications, and stays dismissed", async ({
  page,
  db,
}) => {
  const m = await createChatMember({ name: "Bo Bounce" });
  await db.DB.prepare("INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, 'new_message', 'bounce')")
    .bind(m.id)
    .run();
  await logIn(page, m);
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

test("installed mode (display-mode: standalone) shows the back button on profile, likes and credits, not elsewhere", async ({
  page,
}) => {
  // Chromium's media emulation (CDP Emulation.setEmulatedMedia) ignores display-mode, and Playwright
  // cannot install the app: the page's matchMedia answers as an installed app's would.
  await page.addInitScript(() => {
    const real = window.matchMedia.bind(window);
    window.matchMedia = (q: string) =>
      /display-mode:\s*standalone/.test(q) ? ({ ...real("all"), matches: true, media: q } as MediaQueryList) : real(q);
  });
  const m = await createChatMember({ name: "Ina Installed" });
  await logIn(page, m);
  await page.goto("/members"); // where the login form would have landed
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

test("a message to a member who is away reaches them by mail through the queue; its one-click unsubscribe switches that type off", async ({
  browser,
  page,
  db,
}) => {
  const alice = await createChatMember({ name: "Alma Away" });
  const bob = await createChatMember({ name: "Bert Away" });
  const a = await browser.newContext({ javaScriptEnabled: false });
  const ap = await a.newPage();
  await logIn(ap, alice);
  await ap.goto(`/members/${bob.id}/chat`);
  await ap.getByRole("textbox", { name: "Message" }).fill("Are you there?");
  await ap.getByRole("button", { name: "Send", exact: true }).click();
  await expect(ap).toHaveURL(/\/chats\/[\w-]+$/);
  await a.close();
  // The queue's consumer sends it within about a second (max_batch_timeout = 1).
  const mail = page.locator(`article[data-to="${bob.email}"]`);
  await expect(async () => {
    await page.goto(`/dev/outbox?to=${encodeURIComponent(bob.email)}`);
    await expect(mail).toHaveCount(1, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  await expect(mail.locator(".outbox-subject")).toHaveText("Alma Away started a conversation with you");
  await expect(mail).toContainText("List-Unsubscribe: http");
  // What a mail client's one-click unsubscribe sends (RFC 8058): a POST, no cookie needed.
  await mail.getByRole("button", { name: "One-click unsubscribe" }).click();
  await expect(page.getByRole("status")).toContainText("You will no longer receive e-mails");
  expect(
    await db.DB.prepare("SELECT type || ':' || reason AS r FROM notifications_disabled WHERE user_id = ?1")
      .bind(bob.id)
      .all()
      .then((r) => r.results.map((x) => x.r)),
  ).toEqual(["new_conversation:list_unsubscribe"]);
  // Bob sees why in /notifications and can switch it on again.
  await logIn(page, bob);
  await page.goto("/notifications");
  await expect(page.locator(".alert-warning")).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "New conversation" })).not.toBeChecked();
  await page.getByRole("checkbox", { name: "New conversation" }).check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.locator(".alert-warning")).toHaveCount(0);
  expect(
    await db.DB.prepare("SELECT COUNT(*) AS n FROM notifications_disabled WHERE user_id = ?1")
      .bind(bob.id)
      .first<number>("n"),
  ).toBe(0);
});

test("push states: a denied permission or a browser without push hides the push alert; /notifications says why", async ({
  browser,
  baseURL,
}) => {
  const m = await createChatMember({ name: "Dina Denied" });
  const denied = await browser.newContext();
  const page = await denied.newPage();
  // The browser's "Block" for this site (Playwright can only grant permissions).
  const cdp = await denied.newCDPSession(page);
  const { targetInfo } = await cdp.send("Target.getTargetInfo");
  await cdp.send("Browser.setPermission", {
    permission: { name: "notifications" },
    setting: "denied",
    origin: new URL(baseURL!).origin,
    browserContextId: targetInfo.browserContextId,
  });
  await logIn(page, m);
  await page.goto("/members");
  await expect(page.locator("body[data-hub]")).toBeAttached();
  await expect(page.getByTestId("push-alert")).toHaveCount(0);
  await page.goto("/notifications");
  await expect(page.locator('[data-push-state="denied"]')).toContainText("blocked");
  await denied.close();

  const old = await browser.newContext();
  const p2 = await old.newPage();
  await p2.addInitScript(() => {
    delete (window as { PushManager?: unknown }).PushManager;
  });
  await logIn(p2, m);
  await p2.goto("/notifications");
  await expect(p2.locator('[data-push-state="unsupported"]')).toBeVisible();
  await p2.goto("/members");
  await expect(p2.locator("body[data-hub]")).toBeAttached();
  await expect(p2.getByTestId("push-alert")).toHaveCount(0);
  await old.close();
});

test("the app badge shows unread messages plus new likes; counts are re-fetched every 60 s, every 300 s with push", async ({
  page,
  db,
}) => {
  const m = await createChatMember({ name: "Bea Badge" });
  const fan = await createChatMember({ name: "Finn Fan" });
  // One new like and two unread messages in a conversation with the fan.
  await db.DB.prepare("INSERT INTO likes (liker_id, liked_id) VALUES (?1, ?2)").bind(fan.id, m.id).run();
  await db.conversation(m.id, fan.id, { id: `badge-${m.id}`, unread: 2, preview: null });
  await page.addInitScript(() => {
    const w = window as unknown as { badges: number[] };
    w.badges = [];
    Object.assign(navigator, {
      setAppBadge: async (n: number) => void w.badges.push(n),
      clearAppBadge: async () => void w.badges.push(0),
    });
  });
  await page.clock.install();
  // Re-fetches: the loaders' data requests (single fetch: GET /members.data).
  const refetches: string[] = [];
  page.on(
    "request",
    (r) => r.method() === "GET" && new URL(r.url()).pathname.endsWith(".data") && refetches.push(r.url()),
  );
  /** Loads /members and, once it is live, stops the page's clock (within the 5 s before the first re-fetch). */
  const open = async () => {
    await page.clock.resume();
    refetches.length = 0;
    await page.goto("/members");
    await expect(page.locator("body[data-hub]")).toBeAttached();
    await page.waitForLoadState("networkidle"); // see countdownRunning in offers.spec.ts
    await stopClock(page);
  };
  await logIn(page, m);
  await open();
  await expect.poll(() => page.evaluate(() => (window as unknown as { badges: number[] }).badges.at(-1))).toBe(3);
  await page.clock.runFor(5_000);
  await expect.poll(() => refetches.length).toBe(1);
  await page.clock.runFor(60_000);
  await expect.poll(() => refetches.length).toBe(2);

  // With push: one every 300 s.
  await db.DB.prepare("INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES (?1, ?2, 'k', 'a')")
    .bind(m.id, `https://push.example.net/${m.id}`)
    .run();
  await db.DB.prepare("UPDATE users SET push_subscribed = 1 WHERE id = ?1").bind(m.id).run();
  await open();
  await page.clock.runFor(5_000);
  await expect.poll(() => refetches.length).toBe(1);
  await page.clock.runFor(240_000);
  expect(refetches.length).toBe(1);
  await page.clock.runFor(60_000);
  await expect.poll(() => refetches.length).toBe(2);
});

test("presence: a hidden page sends the page-hidden beacon and the member shows offline; after sign-up the auto-like runs and likes are re-fetched", async ({
  page,
  db,
}) => {
  const m = await createChatMember({ name: "Hanna Hidden" });
  await logIn(page, m);
  await page.goto("/members");
  await expect(page.locator("body[data-hub]")).toBeAttached();
  const lastSeen = () =>
    db.DB.prepare("SELECT unixepoch() - last_seen_at AS n FROM users WHERE id = ?1").bind(m.id).first<number>("n");
  expect(await lastSeen()).toBeLessThan(60);
  const beacon = page.waitForResponse(
    (r) => r.url().endsWith("/api/page-hidden.php") && r.request().method() === "POST",
  );
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  });
  expect((await beacon).status()).toBe(204);
  // Offline: last seen at least ten minutes ago.
  expect(await lastSeen()).toBeGreaterThanOrEqual(600);

  // The sign-up's matches page: the auto-like call, then the page's data again (after 500 ms).
  const autoLike = page.waitForResponse((r) => r.url().endsWith("/api/auto-like.php"));
  await page.goto("/signup-matches");
  await autoLike;
  const reload = await page.waitForRequest((r) => new URL(r.url()).pathname.endsWith(".data") && r.method() === "GET");
  expect(new URL(reload.url()).pathname).toBe("/signup-matches.data");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("push can be turned off on every device from /notifications; unsubscribe pages work with a plain form", async ({
    page,
    db,
  }) => {
    const m = await createChatMember({ name: "Nora NoJS" });
    await db.DB.prepare("INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES (?1, ?2, 'k', 'a')")
      .bind(m.id, `https://push.example.net/${m.id}`)
      .run();
    await db.DB.prepare("UPDATE users SET push_subscribed = 1 WHERE id = ?1").bind(m.id).run();
    await logIn(page, m);
    await page.goto("/notifications");
    await page.getByRole("button", { name: "Turn off on all devices" }).click();
    await expect(page.getByRole("button", { name: "Turn off on all devices" })).toHaveCount(0);
    expect(
      await db.DB.prepare("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?1")
        .bind(m.id)
        .first<number>("n"),
    ).toBe(0);
    await page.goto("/unsubscribe?u=nobody&t=news&s=00000000000000000000000000000000");
    await expect(page.getByText("This unsubscribe link is not valid.")).toBeVisible();
  });
});
