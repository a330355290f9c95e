import type { Browser, Page } from "@playwright/test";
import { shot } from "./support/console";
import { PASSWORD, createChatMember } from "./support/chat-db";
import { expect, logIn, operatorPage, test } from "./support/fixtures";

/**
 * Notice and action end to end (decision 167): a member reports a message from the chat, a moderator
 * bans the sender with a reason in the console, the sender is thrown out of the open chat and, at
 * the next login, sees the statement of reasons and nothing else. Members come from fixtures.
 */

async function memberPage(browser: Browser, member: { id: string }) {
  const context = await browser.newContext();
  await logIn(context, member);
  return context.newPage();
}

/** The member's first message to `otherId` starts the conversation; the chat's socket is connected. */
async function firstMessage(s: Page, otherId: string, text: string) {
  await s.goto(`/members/${otherId}/chat`);
  await s.getByRole("textbox", { name: "Message" }).fill(text);
  await s.getByRole("button", { name: "Send", exact: true }).click();
  await s.waitForURL(/\/chats\/[\w-]+$/);
  await expect(s.locator(".chat[data-connected]")).toBeVisible();
  return new URL(s.url()).pathname;
}

test("a member reports a message, a moderator bans the sender, the sender is thrown out and sees the statement", async ({
  browser,
}) => {
  const senderName = `Sam Scammer ${Date.now().toString(36)}`;
  const sender = await createChatMember({ name: senderName });
  const reporter = await createChatMember({ name: "Rita Reporter" });
  const s = await memberPage(browser, sender);
  const conversation = await firstMessage(s, reporter.id, "Send me 200 euros in gift cards please");

  // The reporter reports the message from its menu in the chat.
  const r = await memberPage(browser, reporter);
  await r.goto(conversation);
  const message = r.locator(".chat-msg.is-theirs");
  await message.getByLabel("More for this message").click();
  await message.getByRole("link", { name: "Report" }).click();
  await expect(r.getByRole("heading", { name: "Report this message" })).toBeVisible();
  await r.getByLabel("Reason").selectOption("scam");
  await r.getByLabel("Explanation").fill("Asks me for money in gift cards.");
  await shot(r, "report-form");
  await r.getByRole("button", { name: "Send report" }).click();
  await expect(r.getByRole("heading", { name: "Thank you for your report" })).toBeVisible();

  // A moderator bans the sender from the console.
  const m = await operatorPage(browser, "moderator@example.com");
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
  await m.getByLabel(/^Public facts/).fill("A member was insulted or asked for money in private messages.");
  await shot(m, "admin-case");
  await m.getByRole("button", { name: "Decide" }).click();
  await expect(m).toHaveURL(/\/admin\/reports$/);

  // The sender's open chat closes at once and the page lands on the login.
  await expect(s).toHaveURL(/\/login/, { timeout: 15_000 });
  await s.locator('input[name="email"]').fill(sender.email);
  await s.locator('input[name="password"]').fill(PASSWORD);
  await s.locator('form:has(input[name="password"]) button[type="submit"]').click();
  await expect(s).toHaveURL(/\/pages\/ban\?statement=/);
  await expect(s.getByText("We closed your account permanently.")).toBeVisible();
  await expect(s.getByText("Asked a member for 200 euros in gift cards.")).toBeVisible();
  await expect(s.getByText(/appeal this decision within six months/)).toBeVisible();
  // The ban page: the reason and the appeal link, nothing else of the site (no menus, no search).
  await expect(s.getByRole("link", { name: "Appeal this decision" })).toHaveAttribute("href", /^\/statement\//);
  await expect(s.getByRole("navigation")).toHaveCount(0);
  await expect(s.getByRole("link", { name: /Search/ })).toHaveCount(0);
  await shot(s, "ban-page");
});

test("a moderator restricts a member's messaging; the member's open chat refuses the next message and says until when", async ({
  browser,
}) => {
  const name = `Rex Rude ${Date.now().toString(36)}`;
  const member = await createChatMember({ name });
  const other = await createChatMember({ name: "Olga Other" });
  const s = await memberPage(browser, member);
  await firstMessage(s, other.id, "You are ugly anyway");

  const r = await memberPage(browser, other);
  await r.goto(`/report?member=${member.id}`);
  await r.getByLabel("Reason").selectOption("harassment");
  await r.getByLabel("Explanation").fill("Insults me in the chat.");
  await r.getByRole("button", { name: "Send report" }).click();
  await expect(r.getByRole("heading", { name: "Thank you for your report" })).toBeVisible();

  const m = await operatorPage(browser, "moderator@example.com");
  await m.goto("/admin/reports");
  await m
    .getByRole("row", { name: new RegExp(name) })
    .getByRole("link", { name: "Open" })
    .click();
  await m.locator('select[name="action"]').selectOption("restrict_messaging");
  await m.getByLabel(/^Days/).fill("7");
  await m.getByLabel("Rule broken (section of the terms)").selectOption("conduct");
  await m.getByLabel(/^Facts/).fill("Insulted a member in the chat after she declined.");
  await m.getByLabel(/^Public facts/).fill("A member was insulted or asked for money in private messages.");
  await m.getByRole("button", { name: "Decide" }).click();
  await expect(m).toHaveURL(/\/admin\/reports$/);

  // The open chat (JavaScript, socket): the next message is refused with the reason, nothing is shown as sent.
  await s.getByRole("textbox", { name: "Message" }).fill("Hello?");
  await s.getByRole("button", { name: "Send", exact: true }).click();
  await expect(s.getByText("A moderator has restricted your messaging: you cannot send messages")).toBeVisible();
  await expect(s.locator(".chat-msg.is-mine")).toHaveCount(1);
  await shot(s, "chat-restricted-live");
  // Reloaded: the send box is replaced by the reason and its end, with the way to the statement.
  await s.reload();
  await expect(s.getByText(/A moderator has restricted your messaging until/)).toBeVisible();
  await expect(s.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  await shot(s, "chat-restricted");
  // Without JavaScript too.
  const n = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await logIn(n, member);
  await n.goto(new URL(s.url()).pathname);
  await expect(n.getByText(/A moderator has restricted your messaging until/)).toBeVisible();
  // The statement is in the account: settings → decisions about my account.
  await s.getByRole("link", { name: "Read the reasons and how to appeal" }).click();
  await expect(s).toHaveURL(/\/settings\/statements$/);
  await expect(s.getByRole("heading", { name: /We restricted your messaging until/ })).toBeVisible();
  await expect(s.getByText("Insulted a member in the chat after she declined.")).toBeVisible();
  await shot(s, "statements");
});

test("a visitor reports a member from a lander's report link and from a member landing (plain links, no JavaScript)", async ({
  browser,
}) => {
  const v = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await v.goto("/landers/gallery");
  await v.locator(".ld-report summary").click();
  const first = v.locator(".ld-report a").first();
  const href = await first.getAttribute("href");
  expect(href).toMatch(/^\/report\?member=/);
  await shot(v, "lander-report-links");
  await first.click();
  await expect(v.getByRole("heading", { name: "Report this profile" })).toBeVisible();
  await expect(v.getByLabel("Your e-mail address")).toBeVisible();
  // A member landing: the card's own link.
  const id = new URLSearchParams(href!.split("?")[1]).get("member")!;
  await v.goto(`/members/${id}/landing`);
  await v.getByRole("link", { name: "Report this profile" }).click();
  await expect(v).toHaveURL(new RegExp(`/report\\?member=${id}$`));
  await expect(v.getByRole("heading", { name: "Report this profile" })).toBeVisible();
});
