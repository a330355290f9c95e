import { createChatMember } from "./support/chat-db";
import { expect, logIn, test } from "./support/fixtures";
import type { Browser } from "@playwright/test";

async function memberPage(browser: Browser, member: { id: string }, javaScriptEnabled = true) {
  const context = await browser.newContext({ javaScriptEnabled });
  await logIn(context, member);
  const page = await context.newPage();
  return { context, page };
}

test("two members chat live: messages and typing arrive without a reload", async ({ browser }) => {
  const alice = await createChatMember({ name: "Alice Live" });
  const bob = await createChatMember({ name: "Bob Live" });
  const a = await memberPage(browser, alice);
  const b = await memberPage(browser, bob);

  // Alice starts the conversation from Bob's profile link.
  await a.page.goto(`/members/${bob.id}/chat`);
  await a.page.getByRole("textbox", { name: "Message" }).fill("Hi Bob, first message");
  await a.page.getByRole("button", { name: "Send", exact: true }).click();
  await a.page.waitForURL(/\/chats\/[\w-]+$/);
  const conversationUrl = a.page.url();
  await expect(a.page.locator(".chat-messages")).toContainText("Hi Bob, first message");

  await b.page.goto(new URL(conversationUrl).pathname);
  await expect(b.page.locator(".chat-messages")).toContainText("Hi Bob, first message");
  // Wait until both sockets are open (the client marks the page once connected).
  await expect(a.page.locator(".chat[data-connected]")).toBeVisible();
  await expect(b.page.locator(".chat[data-connected]")).toBeVisible();

  await a.page.getByRole("textbox", { name: "Message" }).pressSequentially("typing");
  await expect(b.page.getByText("Alice Live is typing…")).toBeVisible();

  await a.page.getByRole("textbox", { name: "Message" }).fill("Live hello");
  await a.page.getByRole("textbox", { name: "Message" }).press("Enter");
  await expect(b.page.locator(".chat-msg.is-theirs").last()).toContainText("Live hello");
  await expect(b.page.getByText("Alice Live is typing…")).toBeHidden();

  await b.page.getByRole("textbox", { name: "Message" }).fill("Hello back");
  await b.page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(a.page.locator(".chat-msg.is-theirs").last()).toContainText("Hello back");
  // Bob has the chat open: Alice sees her message read.
  await expect(a.page.locator(".chat-msg.is-mine .chat-status").last()).toHaveText("Read");
  await a.context.close();
  await b.context.close();
});

test.describe("without JavaScript", () => {
  test("the send form posts through the same path and the message is shown", async ({ browser }) => {
    const alice = await createChatMember({ name: "Alice NoJS" });
    const bob = await createChatMember({ name: "Bob NoJS" });
    const a = await memberPage(browser, alice, false);
    await a.page.goto(`/members/${bob.id}/chat`);
    await a.page.getByRole("textbox", { name: "Message" }).fill("Sent without script");
    await a.page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(a.page).toHaveURL(/\/chats\/[\w-]+$/);
    await expect(a.page.locator(".chat-messages")).toContainText("Sent without script");
    // An icebreaker from the select, with the textarea left empty.
    await a.page.getByRole("combobox").selectOption("5");
    await a.page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(a.page.locator(".chat-messages")).toContainText("Coffee or wine for a first date?");
    // The receiver sees both (server-rendered) and the overview lists the chat.
    const b = await memberPage(browser, bob, false);
    await b.page.goto("/chats");
    await b.page.getByRole("link", { name: /^Alice NoJS/ }).click();
    await expect(b.page.locator(".chat-messages")).toContainText("Sent without script");
    await a.context.close();
    await b.context.close();
  });
});

for (const javaScriptEnabled of [true, false]) {
  test(`out of credits shows the spec's text and a way to buy credits, keeping the text (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
    browser,
  }) => {
    const poor = await createChatMember({ name: "Poor Sender", credits: 1 });
    const other = await createChatMember({ name: "Rich Receiver" });
    const p = await memberPage(browser, poor, javaScriptEnabled);
    await p.page.goto(`/members/${other.id}/chat`);
    await p.page.getByRole("textbox", { name: "Message" }).fill("my last credit");
    await p.page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(p.page).toHaveURL(/\/chats\/[\w-]+$/);
    if (javaScriptEnabled) await expect(p.page.locator(".chat[data-connected]")).toBeVisible();
    await p.page.getByRole("textbox", { name: "Message" }).fill("one more");
    await p.page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(p.page.getByText("You do not have enough credits to send this message")).toBeVisible();
    // The buy button posts the chat's form to the shop, so the purchase comes back here (decision 179).
    await expect(p.page.getByRole("button", { name: /Buy credits/ })).toHaveAttribute("formaction", "/credits?index");
    // The refused text stays in the box, ready to send once credits are bought.
    await expect(p.page.getByRole("textbox", { name: "Message" })).toHaveValue("one more");
    await p.context.close();
  });
}

test("on a phone the chat has no serious axe violations, names its icon buttons, and the nav highlights Messages (decision 011)", async ({
  browser,
}) => {
  const { default: AxeBuilder } = await import("@axe-core/playwright");
  const alice = await createChatMember({ name: "Alice Phone" });
  const bob = await createChatMember({ name: "Bob Phone" });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await logIn(context, alice);
  const page = await context.newPage();
  await page.goto(`/members/${bob.id}/chat`);
  await expect(page.getByRole("button", { name: "Icebreakers" })).toBeVisible();
  // A chat opened from a profile belongs to Messages, not Search.
  const nav = page.getByRole("navigation", { name: "Main navigation" });
  await expect(nav.getByRole("link", { name: /Messages/ })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: /Search/ })).not.toHaveAttribute("aria-current", "page");
  const { violations } = await new AxeBuilder({ page }).include(".chat").analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await context.close();
});
