import { expect, logIn, operatorPage, test } from "./support/fixtures";
import { shot } from "./support/shots";
import { EXIF_JPEG, bytesOf } from "../worker/images";
import { e2eDb } from "./support/db";

/**
 * The team behind the team-run profiles (decision 201): a member writes to a team-run profile and
 * keeps the chat open; the development chat-team operator (no JavaScript: the console ships none)
 * finds it in the inbox, opens it (claims it) and replies as the profile; the member's open chat shows
 * the reply live. With SHOTS set, the inbox, a conversation, a team-run profile's photos and the reply
 * figures are taken at 390 and 1280 px (docs/screenshots).
 */
const db = e2eDb();

test("the chat team answers a member as a team-run profile; the member's open chat shows it live", async ({
  browser,
  baseURL,
}) => {
  const member = await db.createMember({
    name: "Mats Member",
    gender: "male",
    credits: 30,
    paidUser: true,
  });
  const team = await db.createMember({ name: "Ilse Inbox", gender: "female", country: "NL" });
  await db.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(team.id).run();

  const m = await browser.newContext();
  await m.addCookies([{ name: "entry_ok", value: "1", url: baseURL! }]);
  const mp = await m.newPage();
  await logIn(mp, member);
  await mp.goto(`/members/${team.id}/chat`);
  await mp.getByRole("textbox", { name: "Message" }).fill("Hi Ilse, how was your weekend?");
  await mp.getByRole("button", { name: "Send", exact: true }).click();
  await mp.waitForURL(/\/chats\/[\w-]+$/);
  await expect(mp.locator(".chat[data-connected]")).toBeVisible();

  const o = await browser.newContext({ javaScriptEnabled: false });
  const op = await o.newPage();
  await op.goto("/admin/login");
  await op.getByLabel("E-mail").fill("team@example.com");
  await op.getByLabel("Password").fill("Demo-pass-2026");
  await op.getByRole("button", { name: "Log in" }).click();
  // The chat team's console opens on its inbox.
  await expect(op).toHaveURL(/\/admin\/inbox$/);
  const row = op.getByRole("row", { name: /Mats Member/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText("Ilse Inbox");
  await shot(op, "inbox-list");
  await row.getByRole("link", { name: "Mats Member" }).click();
  await expect(op.getByText("You hold this conversation")).toBeVisible();
  await expect(op.getByText("Hi Ilse, how was your weekend?")).toBeVisible();
  await shot(op, "inbox-conversation");
  // A phone number is refused, with the reason.
  await op.getByLabel("Reply as Ilse Inbox").fill("Call me: 06 1234 5678");
  await op.getByRole("button", { name: "Send as Ilse Inbox" }).click();
  await expect(op.getByRole("alert")).toContainText("contact details");
  await op.getByLabel("Reply as Ilse Inbox").fill("Lovely and quiet, I read a lot. And yours?");
  await op.getByRole("button", { name: "Send as Ilse Inbox" }).click();
  await expect(op).toHaveURL(/\/admin\/inbox\?sent=1$/);
  await expect(op.getByRole("row", { name: /Mats Member/ })).toHaveCount(0);

  await expect(mp.locator(".chat-msg.is-theirs").last()).toContainText("Lovely and quiet, I read a lot. And yours?");
  await expect(mp.locator(".chat-head").getByTestId("fictional-mark")).toBeVisible();
  await m.close();
  await o.close();
});

test("the chat team adds a photo to a team-run profile (reviewed like a member's) and reads the reply figures", async ({
  browser,
}) => {
  const op = await operatorPage(browser, "team@example.com");
  await op.goto("/admin/team-profiles");
  await op.getByRole("table").getByRole("link").first().click();
  await expect(op.getByText("team-run", { exact: false }).first()).toBeVisible();
  await op
    .locator('input[type="file"][name="photo"]')
    .setInputFiles({ name: "persona.jpg", mimeType: "image/jpeg", buffer: Buffer.from(bytesOf(EXIF_JPEG)) });
  await op.getByRole("button", { name: "Upload" }).click();
  await expect(op.getByText("Photo added.", { exact: false })).toBeVisible();
  await expect(op.locator(".a-photos li").filter({ hasText: "waiting for review" }).first()).toBeVisible();
  await shot(op, "inbox-team-profile");
  await op.goto("/admin/inbox/figures");
  await expect(op.getByRole("heading", { name: "Reply figures" })).toBeVisible();
  await expect(op.getByRole("heading", { name: "Per brand" })).toBeVisible();
  await shot(op, "inbox-figures");
  await op.context().close();
});
