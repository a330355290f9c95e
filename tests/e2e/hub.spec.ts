import { createChatMember } from "./support/chat-db";
import { stopClock } from "./support/clock";
import { expect, logIn, test } from "./support/fixtures";

test("a message in a conversation the member does not have open updates the badge and the title at once", async ({
  browser,
}) => {
  const alice = await createChatMember({ name: "Alice Hub" });
  const bob = await createChatMember({ name: "Bob Hub" });
  const bobContext = await browser.newContext();
  await logIn(bobContext, bob);
  const b = await bobContext.newPage();
  // Bob's timers are stopped once his hub socket is open: the periodic re-fetch cannot be what
  // updates his counts, only the hub's event can.
  await b.clock.install();
  await b.goto("/members");
  await expect(b.locator("body[data-hub]")).toBeAttached();
  await stopClock(b);
  const badge = b.locator('[data-badge="messages"]').first();
  await expect(badge).toHaveCount(0);
  expect(await b.title()).not.toMatch(/^\(\d+\)/);

  const aliceContext = await browser.newContext();
  await logIn(aliceContext, alice);
  const a = await aliceContext.newPage();
  await a.goto(`/members/${bob.id}/chat`);
  await a.getByRole("textbox", { name: "Message" }).fill("Hello Bob, anybody home?");
  await a.getByRole("button", { name: "Send", exact: true }).click();
  await a.waitForURL(/\/chats\/[\w-]+$/);

  await expect(badge.locator('[aria-hidden="true"]')).toHaveText("1");
  await expect(b).toHaveTitle(/^\(1\) /);
  expect(new URL(b.url()).pathname).toBe("/members");
  await aliceContext.close();
  await bobContext.close();
});
