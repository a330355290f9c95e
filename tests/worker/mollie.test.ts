/**
 * The Mollie adapter against recorded copies of Mollie's documented v2 responses (tests/worker/mollie/),
 * with a fetch stub that also records what the adapter sent.
 */
import { describe, expect, it } from "vitest";
import { MOLLIE_API, MollieProvider } from "../../app/lib/payments/mollie.server";
import { PaymentProviderError } from "../../app/lib/payments/provider";
import customer from "./mollie/customer.json";
import error401 from "./mollie/error-401.json";
import error404 from "./mollie/error-404-payment.json";
import error422 from "./mollie/error-422-amount.json";
import error422Refund from "./mollie/error-422-refund.json";
import mandate from "./mollie/mandate-directdebit.json";
import mandates from "./mollie/mandates-list.json";
import methods from "./mollie/methods-nl.json";
import failedRecurring from "./mollie/payment-failed-recurring.json";
import open from "./mollie/payment-open.json";
import paidFirst from "./mollie/payment-paid-first.json";
import refundedCharged from "./mollie/payment-paid-refund-chargeback.json";
import refund from "./mollie/refund-pending.json";
import refundSek from "./mollie/refund-pending-sek.json";
import swishSek from "./mollie/payment-open-swish-sek.json";

const noPause = async () => undefined;
type Sent = { url: string; method: string; headers: Record<string, string>; body: unknown };

function stub(status: number, json: unknown) {
  const sent: Sent[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    sent.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    return new Response(JSON.stringify(json), { status, headers: { "Content-Type": "application/hal+json" } });
  }) as typeof fetch;
  return { mollie: new MollieProvider("test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM", fetcher, MOLLIE_API, noPause), sent };
}

describe("Mollie adapter", () => {
  it("creates a payment: Bearer key, Idempotency-Key, amount as a decimal string, sequenceType; reads the checkout URL", async () => {
    const { mollie, sent } = stub(201, open);
    const p = await mollie.createPayment({
      amount: { cents: 1995, currency: "EUR" },
      description: "Amora: 60 credits (pay_1)",
      method: "ideal",
      redirectUrl: "https://amora.example/credits/p1/ideal?payment=pay_1",
      webhookUrl: "https://amora.example/api/payments/webhook",
      metadata: { paymentId: "pay_1" },
      idempotencyKey: "pay_1",
      sequenceType: "oneoff",
      locale: "nl_NL",
    });
    expect(sent[0]!.url).toBe("https://api.mollie.com/v2/payments");
    expect(sent[0]!.method).toBe("POST");
    expect(sent[0]!.headers.authorization).toBe("Bearer test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM");
    expect(sent[0]!.headers["idempotency-key"]).toBe("pay_1");
    expect(sent[0]!.body).toMatchObject({
      amount: { value: "19.95", currency: "EUR" },
      method: "ideal",
      sequenceType: "oneoff",
      metadata: { paymentId: "pay_1" },
    });
    expect(p).toMatchObject({
      id: "tr_WDqYK6vllg",
      status: "open",
      amount: { cents: 1995, currency: "EUR" },
      checkoutUrl: "https://www.mollie.com/checkout/select-method/WDqYK6vllg",
    });
  });

  it("a recurring payment names the customer and the mandate and has no method or checkout", async () => {
    const { mollie, sent } = stub(201, failedRecurring);
    const p = await mollie.createPayment({
      amount: { cents: 995, currency: "EUR" },
      description: "x",
      redirectUrl: "https://a.example/r",
      webhookUrl: "https://a.example/w",
      metadata: { paymentId: "pay_3" },
      idempotencyKey: "pay_3",
      sequenceType: "recurring",
      customerId: "cst_8wmqcHMN4U",
      mandateId: "mdt_h3gAaD5zP",
    });
    expect(sent[0]!.body).toMatchObject({
      sequenceType: "recurring",
      customerId: "cst_8wmqcHMN4U",
      mandateId: "mdt_h3gAaD5zP",
    });
    expect((sent[0]!.body as Record<string, unknown>).method).toBeUndefined();
    expect(p).toMatchObject({
      status: "failed",
      failureReason: "card_expired",
      checkoutUrl: null,
      sequenceType: "recurring",
    });
  });

  it("gets a paid first payment with its mandate; an unknown id is null; a malformed id never reaches Mollie", async () => {
    const paid = stub(200, paidFirst);
    expect(await paid.mollie.getPayment("tr_7UhSN1zuXS")).toMatchObject({
      status: "paid",
      method: "creditcard",
      customerId: "cst_8wmqcHMN4U",
      mandateId: "mdt_h3gAaD5zP",
      sequenceType: "first",
      amount: { cents: 995, currency: "EUR" },
      amountRefunded: { cents: 0, currency: "EUR" },
      paidAt: "2026-11-23T09:14:02+00:00",
      metadata: { paymentId: "pay_2" },
    });
    expect(paid.sent[0]!.url).toBe("https://api.mollie.com/v2/payments/tr_7UhSN1zuXS?embed=refunds,chargebacks");
    const missing = stub(404, error404);
    expect(await missing.mollie.getPayment("tr_doesnotexist")).toBeNull();
    const bad = stub(200, paidFirst);
    expect(await bad.mollie.getPayment("../customers/cst_x")).toBeNull();
    expect(bad.sent).toHaveLength(0);
  });

  it("creates a refund on the payment", async () => {
    const { mollie, sent } = stub(201, refund);
    const r = await mollie.createRefund({
      paymentId: "tr_WDqYK6vllg",
      amount: { cents: 1330, currency: "EUR" },
      description: "Refund of 40 unused credits",
      metadata: { paymentId: "pay_1", refundId: "ref_1" },
      idempotencyKey: "ref_1",
    });
    expect(sent[0]!.url).toBe("https://api.mollie.com/v2/payments/tr_WDqYK6vllg/refunds");
    expect(sent[0]!.headers["idempotency-key"]).toBe("ref_1");
    expect(sent[0]!.body).toMatchObject({ amount: { value: "13.30", currency: "EUR" } });
    expect(r).toEqual({
      id: "re_4qqhO89gsT",
      paymentId: "tr_WDqYK6vllg",
      amount: { cents: 1330, currency: "EUR" },
      status: "pending",
      metadata: { paymentId: "pay_1", refundId: "ref_1" },
      createdAt: "2026-11-23T11:09:02+00:00",
    });
  });

  it("lists the methods for a country, amount and sequence type", async () => {
    const { mollie, sent } = stub(200, methods);
    const list = await mollie.listMethods({
      country: "NL",
      amount: { cents: 1995, currency: "EUR" },
      sequenceType: "oneoff",
      locale: "nl_NL",
    });
    const q = new URL(sent[0]!.url).searchParams;
    expect(q.get("amount[value]")).toBe("19.95");
    expect(q.get("amount[currency]")).toBe("EUR");
    expect(q.get("billingCountry")).toBe("NL");
    expect(q.get("sequenceType")).toBe("oneoff");
    // resource=payments is deprecated (Mollie's description): not sent.
    expect(q.has("resource")).toBe(false);
    expect(list.map((m) => m.id)).toEqual(["ideal", "creditcard", "paypal"]);
    expect(list[1]!.maximumAmount).toEqual({ cents: 200000, currency: "EUR" });
    expect(list[2]!.maximumAmount).toBeNull();
    // The logos the method cards show (decision 180): Mollie's own https SVGs only.
    expect(list[0]!.image).toBe("https://www.mollie.com/external/icons/payment-methods/ideal.svg");
    const elsewhere = stub(200, {
      count: 1,
      _embedded: { methods: [{ ...methods._embedded.methods[0], image: { svg: "https://evil.example/x.svg" } }] },
    });
    const [other] = await elsewhere.mollie.listMethods({
      country: "NL",
      amount: { cents: 1995, currency: "EUR" },
      sequenceType: "oneoff",
    });
    expect(other!.image).toBeNull();
  });

  it("creates a customer and a direct debit mandate, and lists a customer's mandates", async () => {
    const c = stub(201, customer);
    expect(
      await c.mollie.createCustomer({
        name: "Mark",
        email: "free@example.com",
        metadata: { userId: "u_1" },
        idempotencyKey: "customer-u_1",
      }),
    ).toEqual({
      id: "cst_8wmqcHMN4U",
      name: "Mark",
      email: "free@example.com",
    });
    const m = stub(201, mandate);
    const created = await m.mollie.createMandate({
      customerId: "cst_8wmqcHMN4U",
      method: "directdebit",
      consumerName: "Mark de Vries",
      consumerAccount: "NL55INGB0000000000",
      signatureDate: "2026-11-23",
      mandateReference: "AMORA-MD-1380",
      idempotencyKey: "dd-1",
    });
    expect(m.sent[0]!.url).toBe("https://api.mollie.com/v2/customers/cst_8wmqcHMN4U/mandates");
    expect(m.sent[0]!.body).toMatchObject({
      method: "directdebit",
      consumerName: "Mark de Vries",
      consumerAccount: "NL55INGB0000000000",
    });
    expect(created).toMatchObject({
      id: "mdt_pWUnw6pkBN",
      status: "valid",
      consumerAccount: "NL55INGB0000000000",
      customerId: "cst_8wmqcHMN4U",
    });
    const l = stub(200, mandates);
    const list = await l.mollie.listMandates("cst_8wmqcHMN4U");
    expect(list.map((x) => [x.id, x.method])).toEqual([
      ["mdt_pWUnw6pkBN", "directdebit"],
      ["mdt_h3gAaD5zP", "creditcard"],
    ]);
  });

  it("turns Mollie's errors into PaymentProviderError with status, title and field", async () => {
    const cases: [number, unknown, number, string | null][] = [
      [422, error422, 422, "amount"],
      [401, error401, 401, null],
      [422, error422Refund, 422, "amount"],
    ];
    /** A one-cent refund, answering the error it was refused with. */
    const refundTry = (m: MollieProvider) =>
      m
        .createRefund({
          paymentId: "tr_x",
          amount: { cents: 1, currency: "EUR" },
          description: "",
          metadata: {},
          idempotencyKey: "k",
        })
        .catch((x) => x);
    for (const [status, body, expected, field] of cases) {
      const { mollie } = stub(status, body);
      const e = await refundTry(mollie);
      expect(e).toBeInstanceOf(PaymentProviderError);
      expect([e.status, e.field]).toEqual([expected, field]);
    }
    let tries = 0;
    const down = new MollieProvider(
      "test_x",
      (async () => {
        tries++;
        throw new TypeError("fetch failed");
      }) as typeof fetch,
      MOLLIE_API,
      noPause,
    );
    const e = await down.getPayment("tr_abc").catch((x) => x);
    expect(e).toBeInstanceOf(PaymentProviderError);
    expect(e.status).toBe(0);
    expect(e.unknownOutcome).toBe(true);
    // A GET is tried once (its callers have a cache, a fallback or a later look); a creating POST is retried
    // with its key while the outcome is unknown (3 attempts in all); a 4xx is final at once.
    expect(tries).toBe(1);
    const posted = await refundTry(down);
    expect(posted.unknownOutcome).toBe(true);
    expect(tries).toBe(4);
    const html = new MollieProvider(
      "test_x",
      (async () => new Response("<html>502</html>", { status: 502 })) as typeof fetch,
      MOLLIE_API,
      noPause,
    );
    expect(await html.getPayment("tr_abc").catch((x) => x)).toBeInstanceOf(PaymentProviderError);
  });

  it("a Swish payment in kronor: SEK amount with two decimals to Mollie, integer öre back; a refund in SEK", async () => {
    const { mollie, sent } = stub(201, swishSek);
    const p = await mollie.createPayment({
      amount: { cents: 21900, currency: "SEK" },
      description: "Hjärtslag: 60 credits (pay_se1)",
      method: "swish",
      redirectUrl: "https://se.example/credits/p1/swish?payment=pay_se1",
      webhookUrl: "https://se.example/api/payments/webhook",
      metadata: { paymentId: "pay_se1" },
      idempotencyKey: "pay_se1",
      sequenceType: "oneoff",
      locale: "sv_SE",
    });
    expect(sent[0]!.body).toMatchObject({
      amount: { value: "219.00", currency: "SEK" },
      method: "swish",
      locale: "sv_SE",
    });
    expect(p).toMatchObject({ id: "tr_Swv7kHzR3q", amount: { cents: 21900, currency: "SEK" }, method: "swish" });

    const r = stub(201, refundSek);
    const re = await r.mollie.createRefund({
      paymentId: "tr_Swv7kHzR3q",
      amount: { cents: 14600, currency: "SEK" },
      description: "Refund of 40 unused credits",
      metadata: { paymentId: "pay_se1", refundId: "ref_se1" },
      idempotencyKey: "ref_se1",
    });
    expect(r.sent[0]!.url).toBe("https://api.mollie.com/v2/payments/tr_Swv7kHzR3q/refunds");
    expect(r.sent[0]!.body).toMatchObject({ amount: { value: "146.00", currency: "SEK" } });
    expect(re).toMatchObject({ id: "re_Sk4m2PqT9x", amount: { cents: 14600, currency: "SEK" }, status: "pending" });

    const m = stub(200, { count: 0, _embedded: { methods: [] } });
    await m.mollie.listMethods({ country: "SE", amount: { cents: 10900, currency: "SEK" }, sequenceType: "oneoff" });
    const q = new URL(m.sent[0]!.url).searchParams;
    expect([q.get("amount[value]"), q.get("amount[currency]"), q.get("billingCountry")]).toEqual([
      "109.00",
      "SEK",
      "SE",
    ]);
  });

  it("reads a payment's embedded refunds (status, our refund id) and what was charged back", async () => {
    const { mollie, sent } = stub(200, refundedCharged);
    const p = await mollie.getPayment("tr_Kc5BrX8pLm");
    expect(sent[0]!.url).toBe("https://api.mollie.com/v2/payments/tr_Kc5BrX8pLm?embed=refunds,chargebacks");
    expect(p!.chargebacks).toEqual([
      {
        id: "chb_xFzwUN4ci8HAmSGUACS4J",
        amount: { cents: 1995, currency: "EUR" },
        createdAt: "2026-11-24T08:02:11+00:00",
        reversedAt: null,
      },
    ]);
    expect(p).toMatchObject({
      status: "paid",
      // The refund failed: Mollie counts nothing refunded.
      amountRefunded: { cents: 0, currency: "EUR" },
      amountChargedBack: { cents: 1995, currency: "EUR" },
      refunds: [
        {
          id: "re_4qqhO89gsT",
          status: "failed",
          amount: { cents: 1330, currency: "EUR" },
          metadata: { paymentId: "pay_4", refundId: "ref_4" },
        },
      ],
    });
    // A payment without _embedded (a create answer) has no refunds.
    const created = stub(201, open);
    expect((await created.mollie.getPayment("tr_WDqYK6vllg"))!.refunds).toEqual([]);
  });
});
