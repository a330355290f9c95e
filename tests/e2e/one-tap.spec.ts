/** Decision 180: nothing lost by one tap (a chat delete asks or offers Undo; Block sits in a ⋯ menu). */
import type { Browser, Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { createChatMember } from "./support/chat-db";
import { e2eDb } from "./support/db";

/** A member with one chat (a message from `other`), logged in. */
async function withChat(
  browser: Browser,
  name: string,
  javaScriptEnabled: boolean,
  viewport = { width: 1280, height: 800 },
) {
  const m = await createChatMember({ name: `Mia ${name}` });
  const other = await createChatMember({ name: `Otto ${name}` });
  const db = e2eDb();
  await db.conversation(m.id, other.id, { id: `c1-${m.id}`.slice(0, 60) });
  const context = await browser.newContext({ javaScriptEnabled, viewport });
  const page = await context.newPage();
  await logIn(page, m);
  return { page, context, other };
}

/** The × is a link without JavaScript: wait until React owns it, so a click is the scripted delete. */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const x = document.querySelector(".chat-list-delete");
    return !!x && Object.keys(x).some((k) => k.startsWith("__reactProps"));
  });
}

test("without JavaScript the × asks first; Cancel keeps the chat, Delete removes it", async ({ browser }) => {
  const { page, context, other } = await withChat(browser, "NoJS", false);
  await page.goto("/chats");
  const item = page.locator(".chat-list-item", { hasText: other.name });
  await item.getByRole("link", { name: `Delete the chat with ${other.name}` }).click();
  await expect(page.getByRole("heading", { name: `Delete the chat with ${other.name}?` })).toBeVisible();
  await page.screenshot({ path: "test-results/one-tap-confirm-1280.png" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "test-results/one-tap-confirm-390.png" });
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/chats$/);
  await expect(item).toBeVisible();
  await item.getByRole("link", { name: `Delete the chat with ${other.name}` }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(page).toHaveURL(/\/chats$/);
  await expect(page.getByText("You have no conversations yet.")).toBeVisible();
  await context.close();
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`with JavaScript a delete offers Undo, which keeps the chat (${viewport.width}px)`, async ({ browser }) => {
    const { page, context, other } = await withChat(browser, `Undo${viewport.width}`, true, viewport);
    await page.goto("/chats");
    await hydrated(page);
    const item = page.locator(".chat-list-item", { hasText: other.name });
    await item.getByRole("link", { name: `Delete the chat with ${other.name}` }).click();
    await expect(item).toBeHidden();
    const bar = page.getByRole("status").filter({ hasText: `Chat with ${other.name} deleted.` });
    await expect(bar).toBeVisible();
    await page.screenshot({ path: `test-results/one-tap-undo-${viewport.width}.png` });
    await bar.getByRole("button", { name: "Undo" }).click();
    await expect(item).toBeVisible();
    await page.reload();
    await expect(page.locator(".chat-list-item", { hasText: other.name })).toBeVisible();
    await context.close();
  });
}

test("with JavaScript a delete without Undo removes the chat; the bar goes after a few seconds", async ({
  browser,
}) => {
  const { page, context, other } = await withChat(browser, "Gone", true);
  await page.clock.install();
  await page.goto("/chats");
  const item = page.locator(".chat-list-item", { hasText: other.name });
  await expect(item).toBeVisible();
  await hydrated(page);
  await item.getByRole("link", { name: `Delete the chat with ${other.name}` }).click();
  const bar = page.getByRole("status").filter({ hasText: `Chat with ${other.name} deleted.` });
  await expect(bar).toBeVisible();
  await page.clock.runFor(7000);
  await expect(bar).toBeHidden();
  await page.reload();
  await expect(page.getByText("You have no conversations yet.")).toBeVisible();
  await context.close();
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`Block and Report sit in a ⋯ menu on the profile and in the chat header; Block still posts (${viewport.width}px)`, async ({
    browser,
  }) => {
    const { page, context, other } = await withChat(browser, `Menu${viewport.width}`, false, viewport);
    await page.goto(`/members/${other.id}`);
    const actions = page.locator(".profile-actions");
    await expect(actions.getByRole("button", { name: "Block" })).toBeHidden();
    await actions.getByLabel("More actions").click();
    await expect(actions.getByRole("link", { name: "Report this profile" })).toBeVisible();
    await page.screenshot({ path: `test-results/one-tap-profile-menu-${viewport.width}.png` });
    // The chat header has the same menu, closed until asked.
    await page.goto("/chats");
    await page
      .getByRole("link", { name: new RegExp(other.name) })
      .first()
      .click();
    const head = page.locator(".chat-head");
    await expect(head.getByRole("button", { name: "Block" })).toBeHidden();
    await head.getByLabel("More actions").click();
    await expect(head.getByRole("link", { name: "Report this profile" })).toBeVisible();
    await page.screenshot({ path: `test-results/one-tap-chat-menu-${viewport.width}.png` });
    await head.getByRole("button", { name: "Block" }).click();
    await expect(page).toHaveURL(new RegExp(`/members/${other.id}$`));
    await expect(page.getByRole("button", { name: "Unblock" })).toBeVisible();
    await context.close();
  });
}
