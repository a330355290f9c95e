/**
 * SEPA direct debit set up by the member's own bank (decision 208): without the brand's approved IBAN
 * form, /directdebit pays the package once with the country's bank method (iDEAL here) as Mollie's
 * `sequenceType: first`; Mollie makes a directdebit mandate from the account that paid, and a later
 * repeat order is a `recurring` direct debit on it. Also Mollie's method parameters (PayPal's
 * digitalGoods, paysafecard's customerReference) and the payer's card or bank country as VAT evidence.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { getBrandById } from "../../app/models/brand.server";
import { handleWebhook } from "../../app/models/payments/webhook.server";
import { repeatOrder } from "../../app/models/payments/recurring.server";
import { startCheckout } from "../../app/models/payments/checkout.server";
import { startFirstPayment } from "../../app/models/directdebit.server";
import customer from "./mollie/customer.json";
import mandate from "./mollie/mandate-directdebit.json";
import methodsNl from "./mollie/methods-nl.json";
import paidFirstIdeal from "./mollie/payment-paid-first-ideal.json";
import paidFirstCard from "./mollie/payment-paid-first.json";
import failedRecurring from "./mollie/payment-failed-recurring.json";
import { choose, clickKey, DIRECT_DEBIT_DETAILS, member, paymentRow } from "./payments-support";
import { clone, fakeMollie, json, listAnswer, mollieContext } from "./mollie-support";
import { get, post } from "./fixtures";

/** Flirtlokaal (nl.localhost): a brand whose own direct debit form Mollie has not approved (the default). */
const HOST = "nl.localhost";
const FLIRTLOKAAL = 3;

/** A fresh Mollie account each time: the methods list is cached per account. */
const account = () => `test_${crypto.randomUUID().replaceAll("-", "").slice(0, 30)}`;

describe("without an approved form, direct debit starts with a first payment by the member's bank", () => {
  it("the page offers iDEAL, and the IBAN form is refused: nothing stored", async () => {
    const m = await member({ brandId: FLIRTLOKAAL });
    const page = await (await get("/directdebit?package=p1", { host: HOST, cookie: m.cookie })).text();
    expect(page).toContain('data-testid="dd-bank"');
    expect(page).toContain("iDEAL");
    expect(page).not.toContain('data-testid="dd-form"');
    const typed = await post(
      "/directdebit",
      { ...DIRECT_DEBIT_DETAILS, package: "p1", mobile: "+31612345678" },
      { host: HOST, cookie: m.cookie },
    );
    expect(typed.status).toBe(403);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM directdebit_requests WHERE user_id = ?1")
      .bind(m.id)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("in the sandbox, a paid first iDEAL payment leaves a valid directdebit mandate; a repeat order is a direct debit on it", async () => {
    const m = await member({ brandId: FLIRTLOKAAL });
    const res = await post(
      "/directdebit",
      { intent: "first", package: "p1", intentKey: clickKey() },
      { host: HOST, cookie: m.cookie },
    );
    expect(res.status).toBe(302);
    const providerId = /\/sandbox\/(tr_\w+)$/.exec(res.headers.get("Location")!)![1]!;
    const first = await env.DB.prepare("SELECT * FROM payments WHERE provider_ref = ?1").bind(providerId).first();
    expect(first).toMatchObject({ method: "ideal", sequence_type: "first", status: "open", brand_id: FLIRTLOKAAL });
    expect(first!.customer_id).toBeTruthy();

    await choose(providerId, "paid");
    const paid = await paymentRow(first!.id as string);
    expect(paid).toMatchObject({ status: "paid" });
    const mandates = await env.DB.prepare("SELECT data FROM sandbox_objects WHERE kind = 'mandate' AND parent_id = ?1")
      .bind(first!.customer_id)
      .all<{ data: string }>();
    expect(mandates.results.map((r) => JSON.parse(r.data))).toMatchObject([
      { id: paid!.mandate_id, method: "directdebit", status: "valid" },
    ]);

    const ctx = { env, deliver: (r: Request) => SELF.fetch(r) } as unknown as AppLoadContext;
    const brand = (await getBrandById(env, FLIRTLOKAAL))!;
    const r = await repeatOrder(ctx, { brand, userId: m.id, origin: `http://${HOST}`, intentKey: clickKey() });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // Collected by the bank later, as a SEPA direct debit is: pending, on the mandate the first payment left.
    expect(r.payment).toMatchObject({
      method: "sepa_directdebit",
      sequenceType: "recurring",
      mandateId: paid!.mandate_id,
      status: "pending",
    });
  });

  it("with Mollie: method ideal and sequenceType first on the member's customer; the paid answer's mandate is charged by direct debit later", async () => {
    const m = await member({ brandId: FLIRTLOKAAL });
    const ctx = mollieContext([], account());
    const brand = (await getBrandById(env, FLIRTLOKAAL))!;
    let paymentId = "";
    const calls = fakeMollie((call) => {
      if (call.url.pathname === "/v2/methods") return json(200, clone(methodsNl));
      if (call.url.pathname === "/v2/customers") return json(201, clone(customer));
      if (call.method === "POST" && call.url.pathname === "/v2/payments") {
        paymentId = (call.body!.metadata as { paymentId: string }).paymentId;
        return json(201, {
          ...clone(paidFirstIdeal),
          status: "open",
          paidAt: undefined,
          mandateId: undefined,
          metadata: call.body!.metadata,
          _links: { checkout: { href: "https://www.mollie.com/checkout/select-issuer/ideal/x", type: "text/html" } },
        });
      }
      return json(500, {});
    });
    const pkg = { id: "p1", tier: "basic", credits: 60, price_cents: 1995, currency: "EUR" };
    const started = await startFirstPayment(ctx, {
      brand,
      member: { ...m, name: "M. de Vries", language: "nl" } as never,
      pkg,
      paymentCountry: "NL",
      origin: "https://nl.example",
      intentKey: clickKey(),
    });
    expect(started).toMatchObject({ ok: true, redirectTo: "https://www.mollie.com/checkout/select-issuer/ideal/x" });
    const listed = calls.find((c) => c.url.pathname === "/v2/methods")!;
    expect(listed.url.searchParams.get("sequenceType")).toBe("first");
    const created = calls.find((c) => c.method === "POST" && c.url.pathname === "/v2/payments")!;
    expect(created.body).toMatchObject({ method: "ideal", sequenceType: "first", customerId: "cst_8wmqcHMN4U" });

    // Mollie's paid answer names the directdebit mandate it made from the paying account (a Belgian IBAN).
    fakeMollie(() => json(200, { ...clone(paidFirstIdeal), metadata: { paymentId } }));
    await handleWebhook(ctx, "tr_Id3FirstQx5");
    const row = await paymentRow(paymentId);
    expect(row).toMatchObject({ status: "paid", mandate_id: "mdt_Id7DdQx3Mk", payment_country: "NL" });
    // VAT evidence: the bank account's country, not the country Mollie detected at checkout (NL).
    expect(row!.provider_country).toBe("BE");
    expect(row!.settlement_cents).toBe(1995);

    const sent = fakeMollie((call) => {
      if (call.method === "GET")
        return listAnswer("mandates", call, [{ ...clone(mandate), id: "mdt_Id7DdQx3Mk", status: "valid" }]);
      return json(201, {
        ...clone(failedRecurring),
        status: "pending",
        method: "directdebit",
        mandateId: "mdt_Id7DdQx3Mk",
        amount: call.body!.amount,
        metadata: call.body!.metadata,
        details: { consumerName: "M. de Vries", consumerAccount: "BE68539007547034", consumerBic: "GEBABEBB" },
      });
    });
    const r = await repeatOrder(ctx, { brand, userId: m.id, origin: "https://nl.example", intentKey: clickKey() });
    expect(r.ok && r.payment).toMatchObject({ method: "sepa_directdebit", status: "pending" });
    expect(sent.find((c) => c.method === "POST")!.body).toMatchObject({
      sequenceType: "recurring",
      mandateId: "mdt_Id7DdQx3Mk",
      customerId: "cst_8wmqcHMN4U",
    });
  });

  it("where the country has no bank that leaves a mandate (Germany), the page says so and no payment is made", async () => {
    const m = await member({ brandId: FLIRTLOKAAL, country: "DE" });
    const cookie = m.cookie.replace("dev_country=NL", "dev_country=DE");
    const page = await (await get("/directdebit?package=p1", { host: HOST, cookie })).text();
    expect(page).not.toContain('data-testid="dd-bank"');
    const res = await post(
      "/directdebit",
      { intent: "first", package: "p1", intentKey: clickKey() },
      { host: HOST, cookie },
    );
    expect(res.status).toBe(403);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1")
      .bind(m.id)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });
});

describe("Mollie's method parameters", () => {
  async function created(method: "paypal" | "paysafecard" | "creditcard", userId: string) {
    const list = clone(methodsNl) as { _embedded: { methods: Record<string, unknown>[] } };
    list._embedded.methods.push({ ...list._embedded.methods[0]!, id: "paysafecard", description: "paysafecard" });
    const calls = fakeMollie((call) => {
      if (call.method === "GET") return json(200, list);
      if (call.url.pathname === "/v2/customers") return json(201, clone(customer));
      return json(201, {
        ...clone(paidFirstCard),
        status: "open",
        sequenceType: "oneoff",
        amount: call.body!.amount,
        metadata: call.body!.metadata,
        _links: { checkout: { href: "https://www.mollie.com/checkout/x", type: "text/html" } },
      });
    });
    const r = await startCheckout(mollieContext([], account()), {
      brand: (await getBrandById(env, 1))!,
      member: { id: userId, name: "M", email: "m@example.com", language: "nl" },
      pkg: { id: "p1", credits: 60, price_cents: 1995, currency: "EUR" },
      method,
      country: "NL",
      origin: "https://amora.example",
      intentKey: clickKey(),
    });
    expect(r.ok).toBe(true);
    return calls.find((c) => c.method === "POST" && c.url.pathname === "/v2/payments")!.body!;
  }

  it("PayPal is told the goods are digital; paysafecard gets a hashed member reference, the same each time and naming nobody", async () => {
    const m = await member();
    expect(await created("paypal", m.id)).toMatchObject({ method: "paypal", digitalGoods: true });
    const a = await created("paysafecard", m.id);
    const b = await created("paysafecard", m.id);
    expect(a.customerReference).toMatch(/^[0-9a-f]{32}$/);
    expect(b.customerReference).toBe(a.customerReference);
    expect(String(a.customerReference)).not.toContain(m.id);
    const other = await member();
    expect((await created("paysafecard", other.id)).customerReference).not.toBe(a.customerReference);
    const card = await created("creditcard", m.id);
    expect(card).not.toHaveProperty("digitalGoods");
    expect(card).not.toHaveProperty("customerReference");
  });
});
