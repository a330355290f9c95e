import { AxeBuilder } from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, logIn, test } from "./support/fixtures";
import { e2eDb } from "./support/db";

/**
 * Direct debit as a member pays with it, with JavaScript on and off: the form, a wrong entry, the
 * code read from the development SMS outbox (/dev/sms), a wrong code, the right one, the pending
 * screen, and the credits once the (sandbox) bank has collected.
 */
const PASSWORD = "Dd-e2e-pass-2026";
const db = e2eDb();

/** By default signed up 8 days ago: past the time bonus and the welcome discount, so prices are the packages' own. */
async function member(page: Page, baseURL: string | undefined, o: { newMember?: boolean } = {}) {
  const m = await db.createMember({ password: PASSWORD, name: "Debit", country: "NL", city: "Utrecht" });
  if (!o.newMember)
    await db.DB.prepare("UPDATE users SET created_at = unixepoch() - 8 * 86400 WHERE id = ?1").bind(m.id).run();
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: baseURL! },
    { name: "dev_country", value: "NL", url: baseURL! },
  ]);
  await logIn(page, m);
  return m;
}

/** A Dutch mobile number of this test's own, so the outbox shows only its SMS under it. */
const mobileNumber = () => `061${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
const e164 = (national: string) => `+31${national.slice(1)}`;

/** The newest code sent to `mobile`, read from /dev/sms like a tester reads their phone. */
async function smsCode(page: Page, mobile: string) {
  const outbox = await page.context().newPage();
  await outbox.goto("/dev/sms");
  const text = await outbox
    .locator(`article[data-to="${e164(mobile)}"] .outbox-text`)
    .first()
    .textContent();
  await outbox.close();
  return /\b(\d{6})\b/.exec(text ?? "")![1]!;
}

async function fillDetails(page: Page, o: { iban: string; mobile: string }) {
  await page.getByLabel("Name of the account holder").fill("Debit Tester");
  await page.getByLabel("IBAN").fill(o.iban);
  await page.getByLabel("Street").fill("Oudegracht");
  await page.getByLabel("House number").fill("12a");
  await page.getByLabel("Postal code").fill("3511 AB");
  await page.getByLabel("City").fill("Utrecht");
  await page.getByLabel("Mobile number").fill(o.mobile);
}

for (const js of [true, false]) {
  test.describe(`direct debit with JavaScript ${js ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled: js });

    test("choose a package → a foreign IBAN is refused → code by SMS → 'Code invalid' → right code → pending → paid", async ({
      page,
      baseURL,
    }) => {
      await member(page, baseURL);
      await page.goto("/directdebit");
      await page.getByRole("link", { name: /Popular/ }).click();
      await expect(page).toHaveURL(/\/directdebit\?package=p1$/);
      await expect(page.getByTestId("dd-package")).toContainText("€19.95");
      if (js) await page.waitForFunction(() => "__remixRouter" in window);

      const mobile = mobileNumber();
      await fillDetails(page, { iban: "DE89 3704 0044 0532 0130 00", mobile });
      await page.getByRole("button", { name: "Send me the code" }).click();
      await expect(page.getByText("Use a bank account from Netherlands, the country you pay from.")).toBeVisible();
      // What was typed is still there.
      await expect(page.getByLabel("Street")).toHaveValue("Oudegracht");

      await page.getByLabel("IBAN").fill("NL91 ABNA 0417 1643 00");
      await page.getByRole("button", { name: "Send me the code" }).click();
      await expect(page.getByRole("heading", { name: "Confirm with the code" })).toBeVisible();
      await expect(page.getByText(`+31\u00A0••••\u00A0${e164(mobile).slice(-3)}`)).toBeVisible();
      const code = await smsCode(page, mobile);

      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
      await page.getByLabel("Code from the SMS").fill(wrong);
      await page.getByRole("button", { name: "Confirm and pay" }).click();
      await expect(page.getByTestId("dd-error")).toHaveText("Code invalid");

      await page.getByLabel("Code from the SMS").fill(code);
      await page.getByRole("button", { name: "Confirm and pay" }).click();
      await expectPendingThenPaid(page, js);
    });

    test("'Change my details' goes back to the form", async ({ page, baseURL }) => {
      await member(page, baseURL);
      await page.goto("/directdebit?package=p0");
      if (js) await page.waitForFunction(() => "__remixRouter" in window);
      await fillDetails(page, { iban: "NL91ABNA0417164300", mobile: mobileNumber() });
      await page.getByRole("button", { name: "Send me the code" }).click();
      await expect(page.getByRole("heading", { name: "Confirm with the code" })).toBeVisible();
      await page.getByRole("button", { name: "Change my details" }).click();
      await expect(page).toHaveURL(/\/directdebit\?package=p0$/);
      await expect(page.getByRole("button", { name: "Send me the code" })).toBeVisible();
    });
  });
}

/**
 * After the right code: the pending screen (SEPA direct debit settles in days). The tester then lets
 * the bank collect on the sandbox page, which calls the webhook; the pending screen turns into
 * 'Payment complete' by itself (JavaScript) or with "Check again" (without).
 */
async function expectPendingThenPaid(page: Page, js: boolean) {
  await expect(page).toHaveURL(/\/credits\/p1\/sepa_directdebit\?payment=/);
  await expect(page.getByTestId("payment-pending")).toBeVisible();
  const paymentId = new URL(page.url()).searchParams.get("payment")!;
  const row = (await db.DB.prepare("SELECT provider_ref FROM payments WHERE id = ?1").bind(paymentId).first()) as {
    provider_ref: string;
  };
  const bank = await page.context().newPage();
  await bank.goto(`/sandbox/${row.provider_ref}`);
  await bank.getByRole("button", { name: "Confirm the payment now" }).click();
  await expect(bank.getByTestId("payment-completed")).toBeVisible();
  await bank.close();
  if (!js) await page.getByRole("button", { name: "Check again" }).click();
  await expect(page.getByTestId("payment-completed")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("heading", { name: "Payment complete" }).first()).toBeVisible();
  await expect(page.getByTestId("new-balance")).toContainText("60 credits");
}

test.describe("a member minutes old (time bonus), without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("sees the package 25% off with the original struck through, and confirms the discounted amount", async ({
    page,
    baseURL,
  }) => {
    await member(page, baseURL, { newMember: true });
    await page.goto("/directdebit");
    await expect(page.getByRole("link", { name: /Popular/ }).getByTestId("price-was")).toHaveText("€19.95");
    await page.getByRole("link", { name: /Popular/ }).click();
    await expect(page.getByTestId("dd-package")).toContainText("You pay €14.96 for 60 credits");
    await expect(page.getByTestId("dd-offer")).toContainText("25% discount with code WELCOME25");
    await expect(page.getByTestId("dd-offer").getByTestId("price-was")).toHaveText("€19.95");
    const mobile = mobileNumber();
    await fillDetails(page, { iban: "NL91 ABNA 0417 1643 00", mobile });
    await page.getByRole("button", { name: "Send me the code" }).click();
    await expect(page.getByText("Enter it to confirm the direct debit of €14.96")).toBeVisible();
  });
});

test("the form with its errors and the code step have no serious accessibility violations", async ({
  page,
  baseURL,
}) => {
  // A new member: the form shows the discounted price too.
  await member(page, baseURL, { newMember: true });
  const serious = async () =>
    (await new AxeBuilder({ page }).analyze()).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id} (${v.nodes
            .map((n) => n.target.join(" "))
            .slice(0, 3)
            .join(", ")})`,
      );
  await page.goto("/directdebit?package=p1");
  await page.waitForFunction(() => "__remixRouter" in window);
  await page.getByRole("button", { name: "Send me the code" }).click();
  await expect(page.getByText("Enter the name of the account holder.")).toBeVisible();
  expect(await serious()).toEqual([]);
  await fillDetails(page, { iban: "NL91ABNA0417164300", mobile: mobileNumber() });
  await page.getByRole("button", { name: "Send me the code" }).click();
  await expect(page.getByRole("heading", { name: "Confirm with the code" })).toBeVisible();
  expect(await serious()).toEqual([]);
});

test("without the approved form (Flirtlokaal): one iDEAL payment sets direct debit up; no IBAN is typed", async ({
  page,
}) => {
  const origin = `http://nl.localhost:${process.env.E2E_PORT ?? 8788}`;
  const m = await db.createMember({ password: PASSWORD, name: "Bank", country: "NL", brandId: 3, language: "en" });
  await db.DB.prepare("UPDATE users SET created_at = unixepoch() - 8 * 86400 WHERE id = ?1").bind(m.id).run();
  await page.context().addCookies([
    { name: "entry_ok", value: "1", url: origin },
    { name: "dev_country", value: "NL", url: origin },
  ]);
  await logIn(page, m, origin);
  await page.goto(`${origin}/directdebit?package=p1`);
  await expect(page.getByRole("heading", { name: "Set up direct debit with iDEAL" })).toBeVisible();
  await expect(page.getByLabel("IBAN")).toHaveCount(0);
  await page.getByRole("button", { name: /^Pay €19\.95 with iDEAL$/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/tr_/);
  await page.getByRole("button", { name: "Paid", exact: true }).click();
  await expect(page).toHaveURL(/\/credits\/p1\/ideal\?payment=/);
  const row = await db.DB.prepare(
    "SELECT status, sequence_type, mandate_id FROM payments WHERE user_id = ?1 ORDER BY created_at DESC LIMIT 1",
  )
    .bind(m.id)
    .first<{ status: string; sequence_type: string; mandate_id: string | null }>();
  expect(row).toMatchObject({ status: "paid", sequence_type: "first" });
  expect(row!.mandate_id).toMatch(/^mdt_/);
});
