/**
 * What only the real Mollie does, against recorded answers (tests/worker/mollie/): a 409 or a 429 on a
 * retry is an unknown outcome, never a refusal (a refund or a recurring payment may have been made), and
 * a provider "paid" that arrives after we marked a payment failed ourselves wins, credited once, while
 * finance is told whenever Mollie's record and ours disagree.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { handleWebhook } from "../../app/models/payments/webhook.server";
import { ownPayment } from "../../app/models/payments/views.server";
import { recheck } from "../../app/models/payments/checks.server";
import { repeatOrder } from "../../app/models/payments/recurring.server";
import { requestRefund } from "../../app/models/payments/refunds.server";
import { startCheckout } from "../../app/models/payments/checkout.server";
import type { PaymentCheck } from "../../app/models/payment-rules";
import paidFirst from "./mollie/payment-paid-first.json";
import failedRecurring from "./mollie/payment-failed-recurring.json";
import refundPending from "./mollie/refund-pending.json";
import conflict from "./mollie/error-409.json";
import tooMany from "./mollie/error-429.json";
import unavailable from "./mollie/error-503.json";
import methodsNl from "./mollie/methods-nl.json";
import { expectLedgerExplains, member, paidPurchase, userRow } from "./payments-support";
import {
  brand,
  clone,
  fakeMollie,
  json,
  listAnswer,
  mandatesAnswer,
  mollieContext,
  pauses,
  timeout,
  type Call,
} from "./mollie-support";
import { createOperator, operatorCookie } from "./admin-support";
import { paymentOrigin } from "../../app/models/brand.server";
import { get } from "./fixtures";

const withRetryAfter = (status: number, body: unknown, seconds: string) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/hal+json", "Retry-After": seconds },
  });

/** Mollie's refund answer for our refund request. */
function refundAnswer(call: Call, status = "pending") {
  return {
    ...clone(refundPending),
    status,
    amount: call.body!.amount,
    metadata: call.body!.metadata,
    paymentId: call.url.pathname.split("/")[3],
  };
}

/** The paid purchase as Mollie knows it, with `refunds` embedded and what it counts as refunded. */
function paymentAnswer(
  p: { id: string; providerRef: string; priceCents: number },
  refunds: unknown[],
  refundedCents = 0,
) {
  const money = (cents: number) => ({ value: (cents / 100).toFixed(2), currency: "EUR" });
  return {
    ...clone(paidFirst),
    id: p.providerRef,
    sequenceType: "oneoff",
    amount: money(p.priceCents),
    amountRefunded: money(refundedCents),
    amountRemaining: money(p.priceCents - refundedCents),
    metadata: { paymentId: p.id },
    _embedded: { refunds },
  };
}

const refundOf = (paymentId: string) =>
  env.DB.prepare("SELECT id, status, provider_ref FROM refunds WHERE payment_id = ?1")
    .bind(paymentId)
    .first<{ id: string; status: string; provider_ref: string | null }>();

describe("a refund answered 409 or 429: unknown, not refused", () => {
  it("a timeout, then 409 on the retry (Mollie still making the first): checking, the credits stay taken, the re-check finds it", async () => {
    const p = await paidPurchase();
    let made: Record<string, unknown> | null = null;
    const checks: PaymentCheck[] = [];
    const calls = fakeMollie((call, attempt) => {
      if (call.method === "POST") {
        made ??= refundAnswer(call);
        return attempt === 1 ? timeout() : json(409, conflict);
      }
      return json(200, paymentAnswer(p, [made]));
    });
    const ctx = mollieContext(checks);
    const result = await requestRefund(ctx, brand, (await ownPayment(ctx, p.m.id, p.id))!);
    expect(result.ok).toBe(true);
    // Two attempts with one key, at least 2 s apart.
    const posts = calls.filter((c) => c.method === "POST");
    expect(posts).toHaveLength(2);
    expect(new Set(posts.map((c) => c.key)).size).toBe(1);
    expect(pauses).toEqual([2000]);
    const refund = (await refundOf(p.id))!;
    expect(refund.status).toBe("checking");
    expect(checks).toEqual([{ kind: "refund", refundId: refund.id }]);
    expect((await userRow(p.m.id))!.credits).toBe(0);
    expect(await recheck(ctx, checks[0]!)).toBe("found");
    expect((await refundOf(p.id))!.status).toBe("pending");
    expect((await userRow(p.m.id))!.credits).toBe(0);
    await expectLedgerExplains(p.m.id);
  });

  it("a 409 on the first attempt is not retried and not a refusal: checking, credits stay taken", async () => {
    const p = await paidPurchase();
    const checks: PaymentCheck[] = [];
    const calls = fakeMollie(() => json(409, conflict));
    const ctx = mollieContext(checks);
    expect((await requestRefund(ctx, brand, (await ownPayment(ctx, p.m.id, p.id))!)).ok).toBe(true);
    expect(calls).toHaveLength(1);
    expect((await refundOf(p.id))!.status).toBe("checking");
    expect((await userRow(p.m.id))!.credits).toBe(0);
  });

  it("a 503, then 429 on the retry: checking (the first may have been made), never failed", async () => {
    const p = await paidPurchase();
    const checks: PaymentCheck[] = [];
    fakeMollie((_call, attempt) => (attempt === 1 ? json(503, unavailable) : withRetryAfter(429, tooMany, "1")));
    const ctx = mollieContext(checks);
    expect((await requestRefund(ctx, brand, (await ownPayment(ctx, p.m.id, p.id))!)).ok).toBe(true);
    expect((await refundOf(p.id))!.status).toBe("checking");
    expect((await userRow(p.m.id))!.credits).toBe(0);
    expect(checks).toHaveLength(1);
  });

  it("a 429 on the first attempt is waited out once (Retry-After), then the same key is made", async () => {
    const p = await paidPurchase();
    const calls = fakeMollie((call, attempt) =>
      attempt === 1 ? withRetryAfter(429, tooMany, "3") : json(201, refundAnswer(call)),
    );
    const ctx = mollieContext();
    expect((await requestRefund(ctx, brand, (await ownPayment(ctx, p.m.id, p.id))!)).ok).toBe(true);
    expect(pauses).toEqual([3000]);
    expect(new Set(calls.map((c) => c.key)).size).toBe(1);
    expect((await refundOf(p.id))!.status).toBe("pending");
  });

  it("the re-check does not list our refund but Mollie counts it refunded: the credits stay taken and finance is alerted", async () => {
    const p = await paidPurchase();
    const checks: PaymentCheck[] = [];
    const warn = vi.spyOn(console, "warn");
    fakeMollie((call) =>
      call.method === "POST" ? json(409, conflict) : json(200, paymentAnswer(p, [], p.priceCents)),
    );
    const ctx = mollieContext(checks);
    await requestRefund(ctx, brand, (await ownPayment(ctx, p.m.id, p.id))!);
    expect(await recheck(ctx, checks[0]!)).toBe("unsure");
    expect((await refundOf(p.id))!.status).toBe("checking");
    expect((await userRow(p.m.id))!.credits).toBe(0);
    const row = await env.DB.prepare("SELECT provider_alert FROM payments WHERE id = ?1").bind(p.id).first();
    expect(row!.provider_alert).toMatch(/not found at the provider/);
    expect(warn.mock.calls.flat().join()).toContain("payments.provider_disagrees");
    // Asked again: still unsure, alerted once.
    expect(await recheck(ctx, checks[0]!)).toBe("unsure");
    expect(warn.mock.calls.flat().filter((l) => String(l).includes("provider_disagrees"))).toHaveLength(1);
    await expectLedgerExplains(p.m.id);
  });
});

describe("a recurring payment answered 409: unknown, not failed", () => {
  it("409 on the create: checking, not charged again; the re-check finds it paid and credits it once", async () => {
    const p = await paidPurchase({ mandate: true });
    let made: Record<string, unknown> | null = null;
    const checks: PaymentCheck[] = [];
    const calls = fakeMollie((call) => {
      if (call.method === "POST") {
        made ??= {
          ...clone(failedRecurring),
          id: "tr_Cf9409Rq2x",
          status: "paid",
          paidAt: "2026-11-24T09:00:00+00:00",
          amount: call.body!.amount,
          metadata: call.body!.metadata,
          details: { cardNumber: "6787", cardHolder: "T. TEST", cardLabel: "Mastercard", cardCountryCode: "NL" },
        };
        return json(409, { ...conflict, detail: "A duplicate payment has been detected" });
      }
      return mandatesAnswer(call) ?? listAnswer("payments", call, [made]);
    });
    const ctx = mollieContext(checks);
    const result = await repeatOrder(ctx, {
      brand,
      userId: p.m.id,
      origin: "https://amora.example",
      intentKey: crypto.randomUUID(),
    });
    expect(result.ok && result.payment.status).toBe("checking");
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(1);
    expect((await userRow(p.m.id))!.credits).toBe(60);
    expect(await recheck(ctx, checks[0]!)).toBe("found");
    expect(await recheck(ctx, checks[0]!)).toBe("settled");
    expect((await userRow(p.m.id))!.credits).toBe(120);
    await expectLedgerExplains(p.m.id);
  });
});

describe("a paid that arrives after we marked the payment failed", () => {
  /** A checkout whose create call never answered: we marked it failed; Mollie made it and the member paid. */
  async function inferredFailure() {
    const m = await member();
    let made: Record<string, unknown> | null = null;
    fakeMollie((call) => {
      if (call.method === "GET" && call.url.pathname === "/v2/methods") return json(200, clone(methodsNl));
      if (call.method === "POST") {
        made ??= {
          ...clone(paidFirst),
          id: "tr_Lt8PaidXy3",
          sequenceType: "oneoff",
          method: "ideal",
          amount: call.body!.amount,
          metadata: call.body!.metadata,
        };
        return timeout();
      }
      return json(200, made);
    });
    const ctx = mollieContext();
    const r = await startCheckout(ctx, {
      brand,
      member: { id: m.id, name: "M", email: m.email, language: "nl" },
      pkg: { id: "p1", credits: 60, price_cents: 1995, currency: "EUR" },
      method: "ideal",
      country: "NL",
      origin: "https://amora.example",
      intentKey: crypto.randomUUID(),
    });
    expect(r).toEqual({ ok: false, error: "provider" });
    const row = await env.DB.prepare("SELECT id, status, failure_reason FROM payments WHERE user_id = ?1")
      .bind(m.id)
      .first<{ id: string; status: string; failure_reason: string }>();
    expect(row!.status).toBe("failed");
    return { m, ctx, paymentId: row!.id };
  }

  it("Mollie's paid wins: credited exactly once under ten concurrent webhooks, and finance is alerted", async () => {
    const { m, ctx, paymentId } = await inferredFailure();
    const warn = vi.spyOn(console, "warn");
    await Promise.all(Array.from({ length: 10 }, () => handleWebhook(ctx, "tr_Lt8PaidXy3")));
    const row = await env.DB.prepare("SELECT status, provider_ref, provider_alert FROM payments WHERE id = ?1")
      .bind(paymentId)
      .first<{ status: string; provider_ref: string; provider_alert: string }>();
    expect(row!.status).toBe("paid");
    expect(row!.provider_ref).toBe("tr_Lt8PaidXy3");
    expect(row!.provider_alert).toMatch(/paid after we marked it failed/);
    expect((await userRow(m.id))!.credits).toBe(60);
    expect(warn.mock.calls.flat().filter((l) => String(l).includes("payments.provider_disagrees"))).toHaveLength(1);
    await handleWebhook(ctx, "tr_Lt8PaidXy3");
    expect((await userRow(m.id))!.credits).toBe(60);
    await expectLedgerExplains(m.id);

    // Finance sees it in the console: the list of payments where Mollie and our record disagree, and the payment.
    const op = await createOperator("finance");
    const cookie = await operatorCookie(op.id);
    const list = await (await get("/admin/payments?alert=1", { cookie })).text();
    expect(list).toContain(paymentId);
    const one = await (await get(`/admin/payments/${paymentId}`, { cookie })).text();
    expect(one).toContain("paid after we marked it failed");
  });

  it("a paid over a status Mollie itself set (expired) is not credited, but finance is alerted", async () => {
    const m = await member();
    const id = `pay_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status, sequence_type)
       VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', 'ideal', 'mollie', 'tr_Ex7pQx2Lm4', 'expired', 'oneoff')`,
    )
      .bind(id, m.id)
      .run();
    fakeMollie(() =>
      json(200, {
        ...clone(paidFirst),
        id: "tr_Ex7pQx2Lm4",
        metadata: { paymentId: id },
        amount: { value: "19.95", currency: "EUR" },
      }),
    );
    await handleWebhook(mollieContext(), "tr_Ex7pQx2Lm4");
    const row = await env.DB.prepare("SELECT status, provider_alert FROM payments WHERE id = ?1").bind(id).first();
    expect(row).toEqual({ status: "expired", provider_alert: "provider says paid, we have expired" });
    expect((await userRow(m.id))!.credits).toBe(0);
  });
});

describe("evidence and the account's mode", () => {
  it("keeps Mollie's countryCode and settlementAmount with the payment; the console flags a payer country that differs", async () => {
    const m = await member();
    const id = `pay_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status, sequence_type, payment_country)
       VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', 'creditcard', 'mollie', 'tr_Ev4CntrQx1', 'open', 'oneoff', 'NL')`,
    )
      .bind(id, m.id)
      .run();
    fakeMollie(() =>
      json(200, {
        ...clone(paidFirst),
        id: "tr_Ev4CntrQx1",
        sequenceType: "oneoff",
        amount: { value: "19.95", currency: "EUR" },
        // The payer's country is the card's issuing country (decision 208), here another than the payment's.
        details: { ...clone(paidFirst).details, cardCountryCode: "DE" },
        countryCode: "DE",
        settlementAmount: { value: "19.36", currency: "EUR" },
        metadata: { paymentId: id },
      }),
    );
    await handleWebhook(mollieContext(), "tr_Ev4CntrQx1");
    const row = await env.DB.prepare(
      "SELECT status, provider_country, settlement_cents, settlement_currency FROM payments WHERE id = ?1",
    )
      .bind(id)
      .first();
    expect(row).toEqual({ status: "paid", provider_country: "DE", settlement_cents: 1936, settlement_currency: "EUR" });
    const op = await createOperator("finance");
    const page = await (await get(`/admin/payments/${id}`, { cookie: await operatorCookie(op.id) })).text();
    expect(page.replace(/<!-- -->/g, "")).toMatch(/DE <span[^>]*>differs from the payment country NL</);
  });

  it("a live-mode answer to a test_ key is the wrong account: nothing is applied", async () => {
    const m = await member();
    const id = `pay_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status, sequence_type)
       VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', 'creditcard', 'mollie', 'tr_Md5LiveQx2', 'open', 'oneoff')`,
    )
      .bind(id, m.id)
      .run();
    fakeMollie(() =>
      json(200, {
        ...clone(paidFirst),
        id: "tr_Md5LiveQx2",
        mode: "live",
        sequenceType: "oneoff",
        metadata: { paymentId: id },
      }),
    );
    await expect(handleWebhook(mollieContext(), "tr_Md5LiveQx2")).rejects.toThrow(/live object to a test key/);
    expect((await env.DB.prepare("SELECT status FROM payments WHERE id = ?1").bind(id).first())!.status).toBe("open");
    expect((await userRow(m.id))!.credits).toBe(0);
  });
});

describe("the URLs Mollie is given", () => {
  it("deployed: the brand's configured https origin, whatever Host the request claims; locally the request's own", () => {
    const spoofed = new Request("https://attacker.example/credits/p1/ideal");
    expect(paymentOrigin({ domain: "amora.example" }, { ENVIRONMENT: "production" }, spoofed)).toBe(
      "https://amora.example",
    );
    expect(paymentOrigin({ domain: "amora.example" }, { ENVIRONMENT: "staging" }, spoofed)).toBe(
      "https://amora.example",
    );
    expect(
      paymentOrigin({ domain: "amora.example" }, { ENVIRONMENT: "test" }, new Request("http://localhost:8787/x")),
    ).toBe("http://localhost:8787");
  });
});
