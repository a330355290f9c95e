/**
 * Decision 090 against recorded Mollie answers (tests/worker/mollie/): the models run on the real Mollie
 * adapter, whose fetch is a small fake Mollie that keeps what it made by Idempotency-Key, as Mollie
 * does. A timeout or a 5xx is not a "no": retried with the same key; still unknown, the payment or
 * refund is "checking" until the provider's own record (webhook or queued re-check) says.
 */
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { handleWebhook } from "../../app/models/payments/webhook.server";
import { methodsFor } from "../../app/models/payments/methods.server";
import { ownPayment } from "../../app/models/payments/views.server";
import { recheck, requeueStaleChecks } from "../../app/models/payments/checks.server";
import { repeatOrder } from "../../app/models/payments/recurring.server";
import { requestRefund } from "../../app/models/payments/refunds.server";
import { startCheckout } from "../../app/models/payments/checkout.server";
import type { PaymentCheck } from "../../app/models/payment-rules";
import paidFirst from "./mollie/payment-paid-first.json";
import failedRecurring from "./mollie/payment-failed-recurring.json";
import refundPending from "./mollie/refund-pending.json";
import methodsNl from "./mollie/methods-nl.json";
import failedSepa from "./mollie/payment-failed-directdebit.json";
import { member, paidPurchase, userRow, expectLedgerExplains } from "./payments-support";
import {
  brand,
  clone,
  fakeMollie,
  json,
  listAnswer,
  mandatesAnswer,
  mollieContext,
  timeout,
  type Call,
  AMORA,
} from "./mollie-support";

/** Mollie's refund answer for our refund (a recorded answer with the request's amount and metadata). */
function refundAnswer(call: Call, status = "pending") {
  const r = clone(refundPending) as Record<string, unknown>;
  return {
    ...r,
    status,
    amount: call.body!.amount,
    metadata: call.body!.metadata,
    paymentId: call.url.pathname.split("/")[3],
  };
}

afterEach(() => vi.unstubAllGlobals());

describe("a refund whose answer is lost", () => {
  it("first call times out but was made: retried with the same key, the same refund comes back; the credits are never given back", async () => {
    const p = await paidPurchase();
    let made: Record<string, unknown> | null = null;
    const calls = fakeMollie((call) => {
      made ??= refundAnswer(call);
      // The first attempt is executed at Mollie, its answer lost; the retry with the same key answers the same refund.
      if (calls.length === 1) timeout();
      return json(201, made);
    });
    const ctx = mollieContext();
    const result = await requestRefund(ctx, brand, (await ownPayment(ctx, p.m.id, p.id))!);
    expect(result.ok).toBe(true);
    expect(calls.map((c) => [c.method, c.url.pathname])).toEqual([
      ["POST", `/v2/payments/${p.providerRef}/refunds`],
      ["POST", `/v2/payments/${p.providerRef}/refunds`],
    ]);
    expect(new Set(calls.map((c) => c.key)).size).toBe(1);
    const refund = await env.DB.prepare("SELECT status, provider_ref FROM refunds WHERE payment_id = ?1")
      .bind(p.id)
      .first();
    expect(refund).toEqual({ status: "pending", provider_ref: "re_4qqhO89gsT" });
    expect((await userRow(p.m.id))!.credits).toBe(0);
    await expectLedgerExplains(p.m.id);
  });

  it("every attempt times out: the refund is checking, the credits stay taken; the re-check finds it at Mollie and never credits back", async () => {
    const p = await paidPurchase();
    let made: Record<string, unknown> | null = null;
    const checks: PaymentCheck[] = [];
    const calls = fakeMollie((call) => {
      if (call.method === "POST") {
        made ??= refundAnswer(call);
        return timeout();
      }
      // The payment as Mollie knows it now, with the refund embedded (GET /payments/{id}?embed=refunds,chargebacks).
      const payment = clone(paidFirst) as Record<string, unknown>;
      return json(200, {
        ...payment,
        id: p.providerRef,
        sequenceType: "oneoff",
        amount: { value: (p.priceCents / 100).toFixed(2), currency: "EUR" },
        metadata: { paymentId: p.id },
        _embedded: { refunds: [made] },
      });
    });
    const ctx = mollieContext(checks);
    const result = await requestRefund(ctx, brand, (await ownPayment(ctx, p.m.id, p.id))!);
    expect(result.ok).toBe(true);
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(3);
    expect(new Set(calls.map((c) => c.key)).size).toBe(1);
    const refundId = (await env.DB.prepare("SELECT id FROM refunds WHERE payment_id = ?1")
      .bind(p.id)
      .first<{ id: string }>())!.id;
    expect((await env.DB.prepare("SELECT status FROM refunds WHERE id = ?1").bind(refundId).first())!.status).toBe(
      "checking",
    );
    expect(checks).toEqual([{ kind: "refund", refundId }]);
    expect((await userRow(p.m.id))!.credits).toBe(0);

    expect(await recheck(ctx, checks[0]!)).toBe("found");
    expect(
      await env.DB.prepare("SELECT status, provider_ref FROM refunds WHERE id = ?1").bind(refundId).first(),
    ).toEqual({ status: "pending", provider_ref: "re_4qqhO89gsT" });
    // Replayed: nothing more.
    expect(await recheck(ctx, checks[0]!)).toBe("settled");
    await handleWebhook(ctx, p.providerRef);
    expect((await userRow(p.m.id))!.credits).toBe(0);
    await expectLedgerExplains(p.m.id);
  });

  it("every attempt times out and Mollie never made it: the re-check gives the credits back, once", async () => {
    const p = await paidPurchase();
    const checks: PaymentCheck[] = [];
    fakeMollie((call) => {
      if (call.method === "POST") return timeout();
      return json(200, {
        ...clone(paidFirst),
        id: p.providerRef,
        amount: { value: (p.priceCents / 100).toFixed(2), currency: "EUR" },
        metadata: { paymentId: p.id },
      });
    });
    const ctx = mollieContext(checks);
    await requestRefund(ctx, brand, (await ownPayment(ctx, p.m.id, p.id))!);
    expect((await userRow(p.m.id))!.credits).toBe(0);
    expect(await recheck(ctx, checks[0]!)).toBe("missing");
    expect(await recheck(ctx, checks[0]!)).toBe("settled");
    expect((await userRow(p.m.id))!.credits).toBe(60);
    expect((await env.DB.prepare("SELECT status FROM refunds WHERE payment_id = ?1").bind(p.id).first())!.status).toBe(
      "failed",
    );
    await expectLedgerExplains(p.m.id);
  });

  it("a 4xx is a real refusal: the credits come back at once", async () => {
    const p = await paidPurchase();
    const calls = fakeMollie(() =>
      json(422, {
        status: 422,
        title: "Unprocessable Entity",
        detail: "The amount is higher than the amount remaining",
        field: "amount",
      }),
    );
    const ctx = mollieContext();
    expect(await requestRefund(ctx, brand, (await ownPayment(ctx, p.m.id, p.id))!)).toEqual({
      ok: false,
      reason: "provider",
    });
    expect(calls).toHaveLength(1);
    expect((await userRow(p.m.id))!.credits).toBe(60);
  });
});

describe("a repeat order whose answer is lost", () => {
  /** Mollie's recurring payment for the create request (a recorded answer, paid, with the request's amount and our id). */
  function recurringAnswer(call: Call, id = "tr_Rq8pWd3Kx2") {
    return {
      ...clone(failedRecurring),
      id,
      status: "paid",
      paidAt: "2026-11-24T09:00:00+00:00",
      amount: call.body!.amount,
      metadata: call.body!.metadata,
      details: { cardNumber: "6787", cardHolder: "T. TEST", cardLabel: "Mastercard", cardCountryCode: "NL" },
    };
  }

  it("first call answers 502 but was made: retried with the same key, charged once and credited once", async () => {
    const p = await paidPurchase({ mandate: true });
    let made: Record<string, unknown> | null = null;
    const calls = fakeMollie((call, attempt) => {
      const mandates = mandatesAnswer(call);
      if (mandates) return mandates;
      made ??= recurringAnswer(call);
      // The create's first attempt fails (a GET is never retried: the webhook's read just answers).
      return call.method === "POST" && attempt === 1
        ? json(502, { status: 502, title: "Bad Gateway", detail: "Bad Gateway" })
        : json(201, made);
    });
    const ctx = mollieContext();
    const result = await repeatOrder(ctx, {
      brand,
      userId: p.m.id,
      origin: "https://amora.example",
      intentKey: crypto.randomUUID(),
    });
    expect(result.ok && result.payment.status).toBe("paid");
    // The mandate looked at first (valid), then the create twice with one key.
    const posts = calls.filter((c) => c.method === "POST");
    expect(posts).toHaveLength(2);
    expect(posts[0]!.key).toBe(posts[1]!.key);
    expect((await userRow(p.m.id))!.credits).toBe(120);
    await handleWebhook(ctx, "tr_Rq8pWd3Kx2");
    expect((await userRow(p.m.id))!.credits).toBe(120);
    await expectLedgerExplains(p.m.id);
  });

  it("every attempt answers 502 but it was made: checking, never failed or charged again; the re-check credits it once", async () => {
    const p = await paidPurchase({ mandate: true });
    let made: Record<string, unknown> | null = null;
    const checks: PaymentCheck[] = [];
    const calls = fakeMollie((call) => {
      const mandates = mandatesAnswer(call);
      if (mandates) return mandates;
      if (call.method === "POST") {
        made ??= recurringAnswer(call);
        return json(502, { status: 502, title: "Bad Gateway", detail: "Bad Gateway" });
      }
      if (call.url.pathname === "/v2/customers/cst_8wmqcHMN4U/payments")
        return json(200, {
          count: 1,
          _embedded: { payments: [made] },
          _links: {
            self: { href: "https://api.mollie.com/v2/customers/cst_8wmqcHMN4U/payments", type: "application/hal+json" },
            previous: null,
            next: null,
            documentation: { href: "https://docs.mollie.com/reference/list-customer-payments", type: "text/html" },
          },
        });
      return json(200, made);
    });
    const ctx = mollieContext(checks);
    const result = await repeatOrder(ctx, {
      brand,
      userId: p.m.id,
      origin: "https://amora.example",
      intentKey: crypto.randomUUID(),
    });
    expect(result.ok && result.payment.status).toBe("checking");
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(3);
    expect(new Set(calls.filter((c) => c.method === "POST").map((c) => c.key)).size).toBe(1);
    expect((await userRow(p.m.id))!.credits).toBe(60);
    const id = result.ok ? result.payment.id : "";
    expect(checks).toEqual([{ kind: "payment", paymentId: id }]);
    // The member's page says it is being checked (pending), not failed.
    expect(await recheck(ctx, checks[0]!)).toBe("found");
    expect((await ownPayment(ctx, p.m.id, id))!.status).toBe("paid");
    expect((await userRow(p.m.id))!.credits).toBe(120);
    // The webhook that follows, and the queue's replay, change nothing.
    await handleWebhook(ctx, "tr_Rq8pWd3Kx2");
    expect(await recheck(ctx, checks[0]!)).toBe("settled");
    expect((await userRow(p.m.id))!.credits).toBe(120);
    await expectLedgerExplains(p.m.id);
  });

  it("not made after all: the re-check finds nothing at Mollie and marks it failed, nothing credited", async () => {
    const p = await paidPurchase({ mandate: true });
    const checks: PaymentCheck[] = [];
    fakeMollie(
      (call) => mandatesAnswer(call) ?? (call.method === "POST" ? timeout() : listAnswer("payments", call, [])),
    );
    const ctx = mollieContext(checks);
    const result = await repeatOrder(ctx, {
      brand,
      userId: p.m.id,
      origin: "https://amora.example",
      intentKey: crypto.randomUUID(),
    });
    expect(result.ok && result.payment.status).toBe("checking");
    expect(await recheck(ctx, checks[0]!)).toBe("missing");
    expect((await ownPayment(ctx, p.m.id, checks[0]!.kind === "payment" ? checks[0]!.paymentId : ""))!.status).toBe(
      "failed",
    );
    expect((await userRow(p.m.id))!.credits).toBe(60);
  });
});

describe("methods as Mollie lists them", () => {
  beforeEach(() => undefined);

  it("asks with includeWallets=applepay and without resource; card and PayPal checked with sequenceType=first", async () => {
    const calls = fakeMollie((call) => {
      const list = clone(methodsNl) as { count: number; _embedded: { methods: Record<string, unknown>[] } };
      const first = call.url.searchParams.get("sequenceType") === "first";
      // Apple Pay only when asked for; PayPal cannot leave a mandate on this merchant's account.
      let methods = list._embedded.methods.filter((m) => !first || (m.id !== "paypal" && m.id !== "ideal"));
      if (!first && call.url.searchParams.get("includeWallets") === "applepay")
        methods = [...methods, { ...methods[1]!, id: "applepay", description: "Apple Pay" }];
      return json(200, { ...list, count: methods.length, _embedded: { methods } });
    });
    const methods = await methodsFor(mollieContext(), AMORA, "NL", { cents: 1995, currency: "EUR" });
    for (const c of calls) expect(c.url.searchParams.has("resource")).toBe(false);
    expect(
      calls.map((c) => [c.url.searchParams.get("sequenceType"), c.url.searchParams.get("includeWallets")]),
    ).toEqual([
      ["oneoff", "applepay"],
      ["first", null],
    ]);
    expect(methods.find((m) => m.method === "applepay")).toBeTruthy();
    expect(methods.find((m) => m.method === "creditcard")!.sequenceType).toBe("first");
    expect(methods.find((m) => m.method === "paypal")!.sequenceType).toBe("oneoff");
  });

  it("a Belgian member reading French pays with Mollie's fr_BE locale (its bank transfer account); a Swiss German de_CH", async () => {
    const sent: Record<string, unknown>[] = [];
    fakeMollie((call) => {
      if (call.method === "GET") {
        const list = clone(methodsNl) as { _embedded: { methods: Record<string, unknown>[] } };
        return json(200, {
          ...list,
          _embedded: { methods: [{ ...list._embedded.methods[0]!, id: "banktransfer", description: "Bank transfer" }] },
        });
      }
      sent.push(call.body!);
      return json(201, {
        ...clone(paidFirst),
        status: "open",
        sequenceType: "oneoff",
        amount: call.body!.amount,
        metadata: call.body!.metadata,
        _links: { checkout: { href: "https://www.mollie.com/checkout/bank-transfer/x", type: "text/html" } },
      });
    });
    const ctx = mollieContext();
    for (const [language, country] of [
      ["fr", "BE"],
      ["de", "CH"],
    ] as const) {
      const m = await member({ language, country });
      const r = await startCheckout(ctx, {
        brand,
        member: { id: m.id, name: "M", email: m.email, language },
        pkg: { id: "p1", credits: 60, price_cents: 1995, currency: "EUR" },
        method: "wire_transfer",
        country,
        origin: "https://amora.example",
        intentKey: crypto.randomUUID(),
      });
      expect(r.ok).toBe(true);
    }
    expect(sent.map((b) => b.locale)).toEqual(["fr_BE", "de_CH"]);
  });
});

describe("a direct debit the bank refuses", () => {
  it("stores and shows the bank's reason code and words, translated for a common code", async () => {
    const m = await member({ paidUser: true, language: "de" });
    const id = `pay_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status, sequence_type)
       VALUES (?1, ?2, 1, 'p0', 25, 995, 'EUR', 'sepa_directdebit', 'mollie', 'tr_Dd7pQx2Lm4', 'pending', 'recurring')`,
    )
      .bind(id, m.id)
      .run();
    fakeMollie(() => json(200, { ...clone(failedSepa), metadata: { paymentId: id } }));
    await handleWebhook(mollieContext(), "tr_Dd7pQx2Lm4");
    const row = await env.DB.prepare("SELECT status, failure_reason, bank_reason FROM payments WHERE id = ?1")
      .bind(id)
      .first();
    expect(row).toEqual({ status: "failed", failure_reason: "AM04", bank_reason: "Insufficient funds" });
    vi.unstubAllGlobals();
    const de = await (
      await SELF.fetch(`http://localhost/credits/p0/sepa_directdebit?payment=${id}`, {
        headers: { cookie: `${m.cookie}; lng=de` },
      })
    ).text();
    expect(de).toContain("das Konto war nicht ausreichend gedeckt");
    expect(de).toContain("(AM04)");
  });
});

describe("a re-check whose queue message was lost", () => {
  it("the hourly sweep queues every payment and refund still checking past its due time again, not the fresh ones", async () => {
    const m = await member({ paidUser: true });
    const now = Math.floor(Date.now() / 1000);
    const paymentId = (k: string) => `pay_${k}_${crypto.randomUUID().slice(0, 6)}`;
    const [stale, fresh, settled] = [paymentId("stale"), paymentId("fresh"), paymentId("settled")] as const;
    const row = (id: string, status: string, updatedAt: number) =>
      env.DB.prepare(
        `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, sequence_type, updated_at)
         VALUES (?1, ?2, 1, 'p0', 25, 995, 'EUR', 'creditcard', 'mollie', ?3, 'recurring', ?4)`,
      ).bind(id, m.id, status, updatedAt);
    const refundId = `re_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.batch([
      row(stale, "checking", now - 3600),
      row(fresh, "checking", now - 10),
      row(settled, "paid", now - 3600),
      env.DB.prepare(
        "INSERT INTO refunds (id, payment_id, user_id, credits, amount_cents, currency, status, created_at) VALUES (?1, ?2, ?3, 25, 995, 'EUR', 'checking', ?4)",
      ).bind(refundId, settled, m.id, now - 3600),
    ]);
    const sent: PaymentCheck[] = [];
    const queue = { sendBatch: async (ms: { body: PaymentCheck }[]) => void sent.push(...ms.map((x) => x.body)) };
    await requeueStaleChecks(
      { DB: env.DB, PAYMENT_CHECKS: queue } as unknown as Parameters<typeof requeueStaleChecks>[0],
      now,
    );
    expect(sent).toContainEqual({ kind: "payment", paymentId: stale });
    expect(sent).toContainEqual({ kind: "refund", refundId });
    expect(sent).not.toContainEqual({ kind: "payment", paymentId: fresh });
    expect(sent).not.toContainEqual({ kind: "payment", paymentId: settled });
  });
});
