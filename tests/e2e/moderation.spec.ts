import { expect, test, type Browser, type Page } from "@playwright/test";
import { PASSWORD, createChatMember, disposeChatDb, login } from "./support/chat-db";

/**
 * Notice and action end to end (issue 20): a member reports a message from the chat, a moderator
 * bans the sender with a reason in the console, the sender is thrown out of the open chat and, at
 * the next login, sees the statement of reasons and nothing else. Members come from fixtures.
 */
test.afterAll(disposeChatDb);
test.describe.configure({ timeout: 120_000 });

async function memberPage(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, email);
  return page;
}

async function shot(page: Page, name: string) {
  if (!process.env.SHOTS) return;
  for (const [w, h] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${process.env.SHOTS}/${name}-${w}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a member reports a message, a moderator bans the sender, the sender is thrown out and sees the statement", async ({
  browser,
}) => {
  const senderName = `Sam Scammer ${Date.now().toString(36)}`;
  const sender = await createChatMember({ name: senderName });
  const reporter = await createChatMember({ name: "Rita Reporter" });
  const s = await memberPage(browser, sender.email);
  await s.goto(`/members/${reporter.id}/chat`);
  await s.getByRole("textbox", { name: "Message" }).fill("Send me 200 euros in gift cards please");
  await s.getByRole("button", { name: "Send", exact: true }).click();
  await s.waitForURL(/\/chats\/[\w-]+$/);
  const conversation = new URL(s.url()).pathname;
  await expect(s.locator(".chat[data-connected]")).toBeVisible();

  // The reporter reports the message from its menu in the chat.
  const r = await memberPage(browser, reporter.email);
  await r.goto(conversation);
  await r.locator(".chat-msg.is-theirs").getByRole("link", { name: "Report" }).click();
  await expect(r.getByRole("heading", { name: "Report this message" })).toBeVisible();
  await r.getByLabel("Reason").selectOption("scam");
  await r.getByLabel("Explanation").fill("Asks me for money in gift cards.");
  await shot(r, "report-form");
  await r.getByRole("button", { name: "Send report" }).click();
  await expect(r.getByRole("heading", { name: "Thank you for your report" })).toBeVisible();

  // A moderator bans the sender from the console.
  const m = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await m.goto("/admin/login");
  await m.getByLabel("E-mail").fill("moderator@example.com");
  await m.getByLabel("Password").fill("Demo-pass-2026");
  await m.getByRole("button", { name: "Log in" }).click();
  await m.goto("/admin/reports");
  await shot(m, "admin-reports");
  // The message's case (the gift-card request also flagged the sender's profile: a second case, decision 176).
  await m
    .getByRole("row", { name: new RegExp(senderName) })
    .filter({ has: m.getByRole("cell", { name: "message", exact: true }) })
    .getByRole("link", { name: "Open" })
    .click();
  await m.getByRole("button", { name: /Show the reported message/ }).click();
  await expect(m.locator(".a-reported")).toContainText("gift cards");
  await m.locator('select[name="action"]').selectOption("ban");
  await m.getByLabel("Rule broken (section of the terms)").selectOption("fraud");
  await m.getByLabel(/^Facts/).fill("Asked a member for 200 euros in gift cards.");
  await shot(m, "admin-case");
  await m.getByRole("button", { name: "Decide" }).click();
  await expect(m).toHaveURL(/\/admin\/reports$/);

  // The sender's open chat closes at once and the page lands on the login.
  await expect(s).toHaveURL(/\/login/, { timeout: 15_000 });
  await s.locator('input[name="email"]').fill(sender.email);
  await s.locator('input[name="password"]').fill(PASSWORD);
  await s.locator('form:has(input[name="password"]) button[type="submit"]').click();
  await expect(s).toHaveURL(/\/statement\//);
  await expect(s.getByText("We closed your account permanently.")).toBeVisible();
  await expect(s.getByText("Asked a member for 200 euros in gift cards.")).toBeVisible();
  await expect(s.getByText(/appeal this decision within six months/)).toBeVisible();
  await shot(s, "statement");
});
