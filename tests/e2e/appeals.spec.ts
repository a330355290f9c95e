import { PASSWORD, createChatMember } from "./support/chat-db";
import { shot } from "./support/console";
import { expect, logIn, operatorPage, test } from "./support/fixtures";
import { login } from "./support/login";

/**
 * Appeals end to end (decision 174), JavaScript off everywhere: a member is banned,
 * opens the statement link from the mail (the development outbox) without logging in, appeals; the
 * moderator who banned cannot decide the appeal, a second operator reverses it; the member sees the
 * outcome with reasons and logs in again.
 */
test.use({ javaScriptEnabled: false });

test("a banned member appeals from the mailed link, a second operator reverses, the member logs in again", async ({
  browser,
}) => {
  const name = `Bea Banned ${Date.now().toString(36)}`;
  const member = await createChatMember({ name });
  const reporter = await createChatMember({ name: "Rita Reporter" });

  // A member reports the profile; the development moderator bans it.
  const r = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await logIn(r, reporter);
  await r.goto(`/report?member=${member.id}`);
  await r.getByLabel("Reason").selectOption("harassment");
  await r.getByLabel("Explanation").fill("Insults in every message.");
  await r.getByRole("button", { name: "Send report" }).click();
  await expect(r.getByRole("heading", { name: "Thank you for your report" })).toBeVisible();
  const m = await operatorPage(browser, "moderator@example.com");
  await m.goto("/admin/reports");
  await m
    .getByRole("row", { name: new RegExp(name) })
    .getByRole("link", { name: "Open" })
    .click();
  await m.locator('select[name="action"]').selectOption("ban");
  await m.getByLabel("Rule broken (section of the terms)").selectOption("conduct");
  await m.getByLabel(/^Facts/).fill("Insulted four members on 21 November.");
  await m.getByLabel(/^Public facts/).fill("A member was insulted or asked for money in private messages.");
  await m.getByRole("button", { name: "Decide" }).click();
  await expect(m).toHaveURL(/\/admin\/reports$/);

  // The member, not logged in, follows the statement link in the mail and appeals.
  const s = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await s.goto(`/dev/outbox?to=${encodeURIComponent(member.email)}`);
  await s.locator(`article[data-to="${member.email}"]`).first().locator('a[href*="/statement/"]').click();
  await expect(s.getByText("We closed your account permanently.")).toBeVisible();
  const statementUrl = s.url();
  await expect(s.getByRole("heading", { name: "Appeal this decision" })).toBeVisible();
  await s.getByLabel("Your explanation").fill("Those were quotes from a film we talked about, not insults.");
  await shot(s, "appeal-form");
  await s.getByRole("button", { name: "Send appeal" }).click();
  await expect(s.getByText(/We received your appeal on/)).toBeVisible();
  await expect(s.getByLabel("Your explanation")).toHaveCount(0);

  // The moderator who banned sees the appeal but may not decide it.
  await m.goto("/admin/appeals");
  await shot(m, "admin-appeals");
  await m
    .getByRole("row", { name: new RegExp(name) })
    .getByRole("link", { name })
    .click();
  await expect(m.getByText("quotes from a film")).toBeVisible();
  await expect(m.getByText("You took this decision: another operator decides its appeal.")).toBeVisible();
  await expect(m.getByRole("button", { name: "Decide the appeal" })).toHaveCount(0);

  // A second operator reverses it with reasons.
  const o = await operatorPage(browser, "operator@example.com");
  await o.goto(new URL(m.url()).pathname);
  await o.getByLabel(/Reverse it/).check();
  await o.getByLabel(/^Reasons/).fill("The lines are quotes from a film both members discussed.");
  await shot(o, "admin-appeal");
  await o.getByRole("button", { name: "Decide the appeal" }).click();
  await expect(o).toHaveURL(/\/admin\/appeals$/);

  // The member sees the outcome with reasons, and logs in again.
  await s.goto(statementUrl);
  await expect(s.getByText("We reviewed your appeal and reversed the decision.", { exact: false })).toBeVisible();
  await expect(s.getByText("The lines are quotes from a film both members discussed.")).toBeVisible();
  await shot(s, "appeal-outcome");
  // Through the form on purpose: the reversed ban lets the member in again.
  await login(s, member.email, PASSWORD);
  await expect(s).not.toHaveURL(/\/statement\//);
  expect((await s.request.get("/api/user.php")).status()).toBe(200);
});
