import type { Page } from "@playwright/test";
import { createChatMember } from "./support/chat-db";
import { expect, logIn, operatorPage, test } from "./support/fixtures";

/**
 * Scam signals and transparency in the console (decision 176), without
 * JavaScript: a new member's first message asks for PayPal, the sender's profile case appears in the
 * queue flagged by automated means with the rule; the moderator reads /admin/transparency.
 * Screenshots at phone and desktop width when SHOTS is set.
 */

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

test("a payment request in a first message flags the sender; the case and the transparency page show it", async ({
  browser,
}) => {
  const senderName = `Paula Payme ${Date.now().toString(36)}`;
  const sender = await createChatMember({ name: senderName });
  const other = await createChatMember({ name: "Otto Other" });
  const s = await (await browser.newContext()).newPage();
  await logIn(s, sender);
  await s.goto(`/members/${other.id}/chat`);
  await s.getByRole("textbox", { name: "Message" }).fill("Hi! Can you send me 50 euros on PayPal for the train?");
  await s.getByRole("button", { name: "Send", exact: true }).click();
  await s.waitForURL(/\/chats\/[\w-]+$/);

  const m = await operatorPage(browser, "moderator@example.com");
  // The check runs after the send answered: the case shows up within moments.
  await expect(async () => {
    await m.goto("/admin/reports");
    await expect(m.getByRole("row", { name: new RegExp(senderName) })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  const row = m.getByRole("row", { name: new RegExp(senderName) });
  await expect(row).toContainText("Payment request in the first messages");
  await row.getByRole("link", { name: "Open" }).click();
  await expect(m.getByText("Flagged by automated means")).toBeVisible();
  await expect(m.locator(".a-flags")).toContainText("(paypal)");
  await shot(m, "admin-flagged-case");

  await m.goto("/admin/transparency");
  await expect(m.getByRole("heading", { name: "Transparency" })).toBeVisible();
  // The flags by rule: a term and its count (Facts).
  const byRule = m.locator(".a-dl > div", {
    has: m.locator("dt", { hasText: /Payment request in the first messages/ }),
  });
  await expect(byRule.locator("dd")).toHaveText(/^[1-9]\d*$/);
  await shot(m, "admin-transparency");
  const download = m.waitForEvent("download");
  await m.getByRole("button", { name: /Download .* as JSON/ }).click();
  expect((await download).suggestedFilename()).toMatch(/^statements-of-reasons-\d{4}-\d{2}\.json$/);
});
