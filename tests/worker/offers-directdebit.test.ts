/**
 * Paying by SEPA direct debit with the member's active discount (decision 114): the form shows the
 * discounted price, the mandate's payment is charged it and carries the code, the bank's collection
 * redeems the code once (replays too), and the monthly limit counts what is really charged.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ledgerOf } from "./wallet-support";
import { DIRECT_DEBIT_METHOD } from "../../app/models/directdebit.server";
import {
  DIRECT_DEBIT_DETAILS,
  expectLedgerExplains,
  member,
  paymentRow,
  post,
  startPayment,
  userRow,
  webhook,
} from "./payments-support";

let phone = 20_000_000;
const nextMobile = () => `06${String(++phone).slice(-8)}`;

/** A member who signed up `secondsAgo` ago (minutes: the welcome offer runs; a month: no offer). */
async function signedUp(secondsAgo: number) {
  const m = await member({ credits: 0 }, 0);
  await env.DB.prepare("UPDATE users SET created_at = unixepoch() - ?2 WHERE id = ?1").bind(m.id, secondsAgo).run();
  return m;
}

const page = async (cookie: string, query = "") =>
  (
    await SELF.fetch(`http://localhost/directdebit${query}`, {
      headers: { Host: "localhost", Cookie: cookie },
      redirect: "manual",
    })
  ).text();

const postDd = (cookie: string, form: Record<string, string>, query = "") =>
  post(`/directdebit${query}`, form, { cookie });

/** Sends the form for `pkg` and enters the code from the SMS; answers the confirmation's response. */
async function payByDirectDebit(cookie: string, userId: string, pkg = "p1") {
  const mobile = nextMobile();
  const sent = await postDd(cookie, { ...DIRECT_DEBIT_DETAILS, package: pkg, mobile }, `?package=${pkg}`);
  expect(sent.status).toBe(302);
  const request = (await env.DB.prepare(
    "SELECT id, amount_cents FROM directdebit_requests WHERE user_id = ?1 AND status = 'open'",
  )
    .bind(userId)
    .first<{ id: string; amount_cents: number }>())!;
  const sms = await env.DB.prepare('SELECT body FROM sms_outbox WHERE "to" = ?1 ORDER BY id DESC')
    .bind(`+31${mobile.slice(1)}`)
    .first<{ body: string }>();
  const code = /\b(\d{6})\b/.exec(sms!.body)![1]!;
  return { request, confirm: () => postDd(cookie, { intent: "code", request: request.id, code }) };
}

const paymentIdFrom = (res: Response) => /\?payment=([\w-]+)$/.exec(res.headers.get("Location") ?? "")?.[1];
const redemptions = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT c.code, r.payment_id FROM discount_redemptions r JOIN discount_codes c ON c.id = r.code_id WHERE r.user_id = ?1",
    )
      .bind(userId)
      .all<{ code: string; payment_id: string }>()
  ).results;
const timeBonusId = () => env.DB.prepare("SELECT id FROM discount_codes WHERE code = 'WELCOME25'").first<number>("id");

describe("direct debit with the welcome offer", () => {
  it("a member minutes old sees 25% off, is charged 25% less on the mandate, and the code is redeemed once when the bank collects", async () => {
    const m = await signedUp(5 * 60);
    for (const query of ["", "?package=p1"]) {
      const html = await page(m.cookie, query);
      expect(html, query).toMatch(/<s class="price-was"[^>]*>€19\.95<\/s>/);
      expect(html, query).toContain("€14.96"); // 1995 − 499
    }
    const form = await page(m.cookie, "?package=p1");
    expect(form).toContain("You pay €14.96 for 60 credits");
    expect(form).toContain("25% discount with code WELCOME25");
    expect(form).toMatch(/collect €14\.96 once/);

    const dd = await payByDirectDebit(m.cookie, m.id);
    expect(dd.request.amount_cents).toBe(1496);
    expect(await page(m.cookie)).toContain("confirm the direct debit of €14.96");
    const res = await dd.confirm();
    expect(res.status).toBe(302);
    const paymentId = paymentIdFrom(res)!;
    const payment = (await paymentRow(paymentId))!;
    expect(payment).toMatchObject({
      status: "pending",
      method: DIRECT_DEBIT_METHOD,
      sequence_type: "recurring",
      amount_cents: 1496,
      original_amount_cents: 1995,
      credits: 60,
      discount_code_id: await timeBonusId(),
    });
    const charged = await env.DB.prepare("SELECT data FROM sandbox_objects WHERE id = ?1")
      .bind(payment.provider_ref)
      .first<{ data: string }>();
    expect(JSON.parse(charged!.data).amount).toEqual({ cents: 1496, currency: "EUR" });
    // Pending: not redeemed yet, but held (a second discounted payment is not possible meanwhile).
    expect(await redemptions(m.id)).toEqual([]);
    expect(await page(m.cookie, "?package=p1")).not.toContain("price-was");

    // The bank collects (the sandbox page calls the webhook); replays and concurrent webhooks change nothing more.
    const settle = await post(`/sandbox/${payment.provider_ref}`, { outcome: "settle" });
    expect(settle.status).toBe(302);
    await Promise.all(Array.from({ length: 10 }, () => webhook(payment.provider_ref as string)));
    expect(await paymentRow(paymentId)).toMatchObject({ status: "paid", amount_cents: 1496 });
    expect(await redemptions(m.id)).toEqual([{ code: "WELCOME25", payment_id: paymentId }]);
    expect(await userRow(m.id)).toEqual({ credits: 60, paid_user: 1 });
    expect((await ledgerOf(m.id, (r) => r.reason === "purchase")).length).toBe(1);
    await expectLedgerExplains(m.id);
    // Paid now: full prices from here on.
    expect(await page(m.cookie, "?package=p1")).not.toContain("price-was");
  });

  it("a member past the offers pays full price, and no code is recorded", async () => {
    const m = await signedUp(30 * 86_400);
    const html = await page(m.cookie, "?package=p1");
    expect(html).not.toContain("price-was");
    expect(html).toContain("You pay €19.95 for 60 credits");
    const dd = await payByDirectDebit(m.cookie, m.id);
    expect(dd.request.amount_cents).toBe(1995);
    const paymentId = paymentIdFrom(await dd.confirm())!;
    expect(await paymentRow(paymentId)).toMatchObject({
      amount_cents: 1995,
      original_amount_cents: null,
      discount_code_id: null,
    });
    const provider = (await paymentRow(paymentId))!.provider_ref as string;
    await post(`/sandbox/${provider}`, { outcome: "settle" });
    await webhook(provider);
    expect(await redemptions(m.id)).toEqual([]);
    expect(await userRow(m.id)).toEqual({ credits: 60, paid_user: 1 });
  });

  it("the monthly limit counts the discounted amount", async () => {
    const limit = (await env.DB.prepare("SELECT directdebit_monthly_limit_cents AS n FROM brands WHERE id = 1").first<{
      n: number;
    }>())!.n;
    const used = async (userId: string) =>
      env.DB.prepare(
        `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status)
         VALUES (?1, ?2, 1, 'p3', 400, ?3, 'EUR', ?4, 'sandbox', 'paid')`,
      )
        .bind(`pay-${crypto.randomUUID()}`, userId, limit - 1500, DIRECT_DEBIT_METHOD)
        .run();
    // 15.00 left this month: p1 at 14.96 fits, at 19.95 it does not.
    const fresh = await signedUp(10 * 60);
    const old = await signedUp(30 * 86_400);
    await used(fresh.id);
    await used(old.id);
    expect(await page(fresh.cookie, "?package=p1")).not.toContain("monthly limit");
    expect(await page(old.cookie, "?package=p1")).toContain("monthly limit");
    const dd = await payByDirectDebit(fresh.cookie, fresh.id);
    expect((await dd.confirm()).status).toBe(302);
    expect(
      await env.DB.prepare("SELECT amount_cents FROM payments WHERE user_id = ?1 AND status = 'pending'")
        .bind(fresh.id)
        .first("amount_cents"),
    ).toBe(1496);
  });

  it("a discount taken by another checkout in the meantime is not charged twice: the direct debit stops and the member starts again", async () => {
    const m = await signedUp(5 * 60);
    const dd = await payByDirectDebit(m.cookie, m.id);
    expect(dd.request.amount_cents).toBe(1496);
    // Meanwhile the member starts a card checkout, which takes the welcome offer.
    const card = await startPayment(m.cookie, "p0", "ideal");
    expect(await paymentRow(card.paymentId)).toMatchObject({
      amount_cents: 746,
      discount_code_id: await timeBonusId(),
    });
    const res = await dd.confirm();
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("Code already used");
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1 AND method = ?2")
        .bind(m.id, DIRECT_DEBIT_METHOD)
        .first("n"),
    ).toBe(0);
    expect(
      await env.DB.prepare("SELECT status FROM directdebit_requests WHERE id = ?1").bind(dd.request.id).first("status"),
    ).toBe("canceled");
    // Starting again, the price is the full one while the card payment holds the code.
    expect(await page(m.cookie, "?package=p1")).toContain("You pay €19.95 for 60 credits");
  });
});
