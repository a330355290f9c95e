/**
 * Mandates that are really the member's: a repeat order looks at its mandate first and refuses one that
 * is no longer valid; the direct debit flow refuses a mandate Mollie made invalid; after a chargeback
 * (recorded: a SEPA chargeback) repeat orders and direct debit stop for the member until support clears
 * the hold in the console, audited; a reversed chargeback (recorded) gives the credits back but keeps the hold.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { handleWebhook } from "../../app/models/payments/webhook.server";
import { repeatOrder } from "../../app/models/payments/recurring.server";
import { payByMandate } from "../../app/models/directdebit.server";
import { getBrandById } from "../../app/models/brand.server";
import chargebackSepa from "./mollie/payment-chargeback-sepa.json";
import chargebackReversed from "./mollie/payment-chargeback-reversed.json";
import failedRecurring from "./mollie/payment-failed-recurring.json";
import customer from "./mollie/customer.json";
import mandate from "./mollie/mandate-directdebit.json";
import { expectLedgerExplains, member, paidPurchase, post, userRow } from "./payments-support";
import { brand, clone, fakeMollie, json, mandatesAnswer, mollieContext } from "./mollie-support";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { get } from "./fixtures";

const order = (userId: string) =>
  repeatOrder(mollieContext(), { brand, userId, origin: "https://amora.example", intentKey: crypto.randomUUID() });

/** Mollie's answer to a recurring payment create: paid at once, with the request's amount and our id. */
const recurringPaid = (body: Record<string, unknown>) => ({
  ...clone(failedRecurring),
  id: `tr_Rp${crypto.randomUUID().slice(0, 8)}`,
  status: "paid",
  paidAt: "2026-11-24T09:00:00+00:00",
  amount: body.amount,
  metadata: body.metadata,
  details: { cardNumber: "6787", cardHolder: "T. TEST", cardLabel: "Mastercard", cardCountryCode: "NL" },
});

describe("a repeat order looks at its mandate first", () => {
  it("a mandate Mollie lists as invalid (an expired card) is not charged: refused, nothing created", async () => {
    const p = await paidPurchase({ mandate: true });
    const calls = fakeMollie((call) => mandatesAnswer(call, { invalid: true }) ?? json(500, {}));
    expect(await order(p.m.id)).toEqual({ ok: false, error: "mandate" });
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(["GET /v2/customers/cst_8wmqcHMN4U/mandates"]);
    expect((await userRow(p.m.id))!.credits).toBe(60);
  });

  it("a valid mandate is charged", async () => {
    const p = await paidPurchase({ mandate: true });
    fakeMollie((call) => mandatesAnswer(call) ?? json(201, recurringPaid(call.body!)));
    const r = await order(p.m.id);
    expect(r.ok && r.payment.status).toBe("paid");
    expect((await userRow(p.m.id))!.credits).toBe(120);
  });
});

describe("the direct debit flow honours the mandate it created", () => {
  it("a mandate Mollie answers invalid: nothing is charged and the request ends", async () => {
    const m = await member();
    const id = `dd-${crypto.randomUUID()}`;
    await env.DB.prepare(
      `INSERT INTO directdebit_requests (id, user_id, brand_id, package_id, amount_cents, currency, holder, iban, country, street, house_number,
         postal_code, city, mobile, code_hash, code_expires_at, last_sent_at, status)
       SELECT ?1, ?2, 1, package_id, price_cents, currency, 'Jan Jansen', 'NL91ABNA0417164300', 'NL', 'Keizersgracht', '1', '1015 CJ', 'Amsterdam',
         '+31612345678', 'x', unixepoch() + 600, unixepoch(), 'verified' FROM package_prices WHERE package_id = 'p1' AND currency = 'EUR'`,
    )
      .bind(id, m.id)
      .run();
    const calls = fakeMollie((call) => {
      if (call.url.pathname === "/v2/customers") return json(201, clone(customer));
      if (call.url.pathname.endsWith("/mandates")) return json(201, { ...clone(mandate), status: "invalid" });
      return json(500, {});
    });
    const result = await payByMandate(mollieContext(), {
      brand: (await getBrandById(env, 1))!,
      member: { ...m, name: "Jan Jansen", email: m.email } as never,
      requestId: id,
      origin: "https://amora.example",
    });
    expect(result).toEqual({ ok: false, reason: "provider" });
    expect(calls.some((c) => c.url.pathname === "/v2/payments")).toBe(false);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1").bind(m.id).first();
    expect(n!.n).toBe(0);
    const req = await env.DB.prepare("SELECT status FROM directdebit_requests WHERE id = ?1").bind(id).first();
    expect(req!.status).toBe("canceled");
  });
});

describe("after a chargeback", () => {
  /** A member whose SEPA direct debit (25 credits) was paid on mandate mdt_pWUnw6pkBN, then charged back. */
  async function chargedBack() {
    // An earlier card purchase left a valid mandate (what a repeat order charges once the hold is cleared).
    const { m } = await paidPurchase({ mandate: true });
    const id = `pay_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status,
         sequence_type, customer_id, mandate_id, payment_country)
       VALUES (?1, ?2, 1, 'p0', 25, 995, 'EUR', 'creditcard', 'mollie', 'tr_Sc8ChbQx4m', 'pending', 'recurring', 'cst_8wmqcHMN4U', 'mdt_h3gAaD5zP', 'NL')`,
    )
      .bind(id, m.id)
      .run();
    const ctx = mollieContext();
    // Collected first (paid), then the bank's chargeback (MD06) on the same payment.
    const paid = { ...clone(chargebackSepa), metadata: { paymentId: id }, amountChargedBack: undefined, _embedded: {} };
    fakeMollie(() => json(200, paid));
    await handleWebhook(ctx, "tr_Sc8ChbQx4m");
    expect((await userRow(m.id))!.credits).toBe(85);
    fakeMollie(() => json(200, { ...clone(chargebackSepa), metadata: { paymentId: id } }));
    await handleWebhook(ctx, "tr_Sc8ChbQx4m");
    expect((await userRow(m.id))!.credits).toBe(60);
    return { m, id, ctx };
  }

  it("repeat orders and direct debit stop until support clears the hold in the console, audited", async () => {
    const { m, id } = await chargedBack();
    const hold = await env.DB.prepare("SELECT payment_id FROM payment_holds WHERE user_id = ?1").bind(m.id).first();
    expect(hold).toEqual({ payment_id: id });
    // The mandate itself is still valid at Mollie: the hold alone refuses, before asking anything.
    const calls = fakeMollie((call) => mandatesAnswer(call) ?? json(201, recurringPaid(call.body!)));
    expect(await order(m.id)).toEqual({ ok: false, error: "hold" });
    expect(calls).toHaveLength(0);
    // The member's page says so in their language.
    const page = await post(
      "/credits/repeat-order",
      { intent: "repeat", intent_key: crypto.randomUUID().replaceAll("-", "") },
      { cookie: m.cookie },
    );
    expect(await page.text()).toContain("repeat orders and direct debit are paused");

    // Support sees the hold on the member's page and clears it with a reason; the audit log has it.
    const op = await createOperator("support");
    const cookie = await operatorCookie(op.id);
    const before = await (await get(`/admin/members/${m.id}`, { cookie })).text();
    expect(before).toContain("on hold");
    expect(before).toContain(id);
    const cleared = await post(
      `/admin/members/${m.id}`,
      { intent: "clear_payment_hold", reason: "Member explained the chargeback" },
      { cookie },
    );
    expect(cleared.status).toBe(302);
    expect(await env.DB.prepare("SELECT 1 FROM payment_holds WHERE user_id = ?1").bind(m.id).first()).toBeNull();
    const audit = (await auditRows(m.id)).reverse();
    expect(audit[0]).toMatchObject({
      action: "member.payment_hold_clear",
      operatorId: op.id,
      reason: "Member explained the chargeback",
    });
    // Cleared twice: refused, no second audit row.
    await post(`/admin/members/${m.id}`, { intent: "clear_payment_hold", reason: "again" }, { cookie });
    expect((await auditRows(m.id)).filter((a) => a.action === "member.payment_hold_clear")).toHaveLength(1);

    const again = await order(m.id);
    expect(again.ok && again.payment.status).toBe("paid");
    await expectLedgerExplains(m.id);
  });

  it("a reversed chargeback (recorded) gives the credits back once; the hold stays for support", async () => {
    const { m, id, ctx } = await chargedBack();
    fakeMollie(() => json(200, { ...clone(chargebackReversed), id: "tr_Sc8ChbQx4m", metadata: { paymentId: id } }));
    await handleWebhook(ctx, "tr_Sc8ChbQx4m");
    await handleWebhook(ctx, "tr_Sc8ChbQx4m");
    expect((await userRow(m.id))!.credits).toBe(85);
    expect(await env.DB.prepare("SELECT status FROM payments WHERE id = ?1").bind(id).first()).toEqual({
      status: "paid",
    });
    expect(await env.DB.prepare("SELECT 1 AS held FROM payment_holds WHERE user_id = ?1").bind(m.id).first()).toEqual({
      held: 1,
    });
    await expectLedgerExplains(m.id);
  });
});
