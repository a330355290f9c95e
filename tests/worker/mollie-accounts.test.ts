/**
 * One Mollie account per company (decision 206): a brand of Herzklang GmbH pays, refunds and is
 * re-checked with Herzklang's own key, never Amora Media's; its customers live in that account; the
 * sandbox keeps the accounts apart as Mollie does. The console shows which account a brand uses, and
 * finance marks a provider alert dealt with (audited).
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { sandboxProvider } from "../../app/lib/payments/index.server";
import { getBrandById } from "../../app/models/brand.server";
import { handleWebhook } from "../../app/models/payments/webhook.server";
import { ownPayment } from "../../app/models/payments/views.server";
import { packageRow } from "../../app/models/payments/common.server";
import { requestRefund } from "../../app/models/payments/refunds.server";
import { startCheckout } from "../../app/models/payments/checkout.server";
import { sweepSilentPayments, SILENT_AFTER_S } from "../../app/models/payments/checks.server";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { get, post } from "./fixtures";
import { AMORA_KEY, clone, fakeMollie, HERZKLANG_KEY, json, mollieContext, type Call } from "./mollie-support";
import openPayment from "./mollie/payment-open.json";
import notFound from "./mollie/error-404-payment.json";
import methodsNl from "./mollie/methods-nl.json";
import { choose, clickKey, member, paymentRow, userRow } from "./payments-support";

/**
 * A Mollie with one organisation per key: what a key creates only that key finds again (another
 * key's ids are a 404, as at Mollie). Payments, refunds and customers.
 */
function mollieOrganisations() {
  const payments = new Map<string, { key: string; body: Record<string, unknown>; status: string; refunded: number }>();
  const customers = new Map<string, string>();
  const calls = fakeMollie((call: Call) => {
    const path = call.url.pathname;
    if (call.method === "GET" && path === "/v2/methods") return json(200, clone(methodsNl));
    if (call.method === "POST" && path === "/v2/customers") {
      const id = `cst_${call.auth!.slice(5, 9)}${customers.size}`;
      customers.set(id, call.auth!);
      return json(201, { resource: "customer", id, mode: "test", name: "M", email: "m@example.com" });
    }
    if (call.method === "POST" && path === "/v2/payments") {
      const customer = call.body!.customerId as string | undefined;
      if (customer && customers.get(customer) !== call.auth)
        return json(422, {
          status: 422,
          title: "Unprocessable Entity",
          detail: "The customer id is invalid",
          field: "customerId",
        });
      const id = `tr_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
      payments.set(id, { key: call.auth!, body: call.body!, status: "open", refunded: 0 });
      return json(201, answer(id));
    }
    const m = /^\/v2\/payments\/(tr_\w+)(\/refunds)?$/.exec(path);
    const p = m ? payments.get(m[1]!) : undefined;
    if (!m || !p || p.key !== call.auth) return json(404, clone(notFound));
    if (m[2] && call.method === "POST") {
      const amount = call.body!.amount as { value: string; currency: string };
      p.refunded += Math.round(Number(amount.value) * 100);
      return json(201, {
        resource: "refund",
        id: `re_${m[1]!.slice(3)}`,
        mode: "test",
        amount,
        status: "pending",
        paymentId: m[1],
        metadata: call.body!.metadata,
        createdAt: new Date().toISOString(),
      });
    }
    return json(200, answer(m[1]!));
  });
  function answer(id: string) {
    const p = payments.get(id)!;
    const base = clone(openPayment) as Record<string, unknown>;
    return {
      ...base,
      id,
      status: p.status,
      amount: p.body.amount,
      description: p.body.description,
      metadata: p.body.metadata,
      sequenceType: p.body.sequenceType,
      customerId: p.body.customerId,
      ...(p.status === "paid" ? { paidAt: new Date().toISOString() } : {}),
      ...(p.refunded ? { amountRefunded: { value: (p.refunded / 100).toFixed(2), currency: "EUR" } } : {}),
    };
  }
  return { calls, payments, customers };
}

const herzklang = async () => (await getBrandById(env, 2))!;

async function herzklangCheckout(ctx: AppLoadContext, method = "ideal") {
  const m = await member({ brandId: 2 });
  const brand = await herzklang();
  const pkg = (await packageRow(ctx, "p1", { id: 2, currency: "EUR" }))!;
  const result = await startCheckout(ctx, {
    brand,
    member: { id: m.id, name: "Anna", email: m.email, language: "de" } as never,
    pkg,
    method,
    country: "NL",
    origin: "https://de.localhost",
    intentKey: clickKey(),
  });
  expect(result).toMatchObject({ ok: true });
  return { m, brand, paymentId: (result as { paymentId: string }).paymentId };
}

describe("a brand of the second company uses its own Mollie account", () => {
  it("Herzklang pays, refunds and is re-checked with Herzklang's key; Amora's key finds none of it", async () => {
    const mollie = mollieOrganisations();
    const ctx = mollieContext();
    const { m, brand, paymentId } = await herzklangCheckout(ctx);
    const row = (await paymentRow(paymentId))!;
    expect(row.provider_account).toBe("HERZKLANG");
    const providerId = row.provider_ref as string;
    // The methods list, the payment: every call so far with Herzklang's key.
    expect(mollie.calls.length).toBeGreaterThan(1);
    expect(new Set(mollie.calls.map((c) => c.auth))).toEqual(new Set([HERZKLANG_KEY]));
    expect(mollie.payments.get(providerId)!.key).toBe(HERZKLANG_KEY);

    // The webhook names only the id: it is re-fetched in the account of our payment's brand.
    mollie.payments.get(providerId)!.status = "paid";
    const before = mollie.calls.length;
    await handleWebhook(ctx, providerId);
    expect(mollie.calls.slice(before).map((c) => [c.method, c.url.pathname, c.auth])).toEqual([
      ["GET", `/v2/payments/${providerId}`, HERZKLANG_KEY],
    ]);
    expect((await paymentRow(paymentId))!.status).toBe("paid");
    expect((await userRow(m.id))!.credits).toBe(60);

    // The refund is made in the same account.
    const refunded = await requestRefund(ctx, brand, (await ownPayment(ctx, m.id, paymentId))!);
    expect(refunded).toMatchObject({ ok: true });
    const refundCall = mollie.calls.find((c) => c.method === "POST" && c.url.pathname.endsWith("/refunds"))!;
    expect(refundCall.auth).toBe(HERZKLANG_KEY);

    // Amora's key does not know Herzklang's payment (as at Mollie): our code never asked with it.
    expect(mollie.calls.some((c) => c.auth === AMORA_KEY)).toBe(false);
  });

  it("the sweep asks each silent payment in its own company's account", async () => {
    const mollie = mollieOrganisations();
    const ctx = mollieContext();
    const { paymentId } = await herzklangCheckout(ctx);
    const old = Math.floor(Date.now() / 1000) - SILENT_AFTER_S - 60;
    await env.DB.prepare("UPDATE payments SET created_at = ?2 WHERE id = ?1").bind(paymentId, old).run();
    const providerId = (await paymentRow(paymentId))!.provider_ref as string;
    mollie.payments.get(providerId)!.status = "paid";
    const before = mollie.calls.length;
    await sweepSilentPayments(ctx, Math.floor(Date.now() / 1000));
    const asked = mollie.calls.slice(before).filter((c) => c.url.pathname === `/v2/payments/${providerId}`);
    expect(asked.map((c) => c.auth)).toEqual([HERZKLANG_KEY]);
    expect((await paymentRow(paymentId))!.status).toBe("paid");
  });

  it("a member's customer of another company's account is never used: a new one is made in Herzklang's", async () => {
    const mollie = mollieOrganisations();
    const ctx = mollieContext();
    const m = await member({ brandId: 2 });
    // Stored when the brand still belonged to Amora Media (its customer lives in Amora's organisation).
    await env.DB.prepare(
      "INSERT INTO payment_customers (user_id, provider, account, customer_id) VALUES (?1, 'mollie', 'AMORA', 'cst_amoraold')",
    )
      .bind(m.id)
      .run();
    const result = await startCheckout(ctx, {
      brand: await herzklang(),
      member: { id: m.id, name: "Anna", email: m.email, language: "de" } as never,
      pkg: (await packageRow(ctx, "p1", { id: 2, currency: "EUR" }))!,
      method: "creditcard",
      country: "NL",
      origin: "https://de.localhost",
      intentKey: clickKey(),
    });
    expect(result).toMatchObject({ ok: true });
    const created = mollie.calls.find((c) => c.method === "POST" && c.url.pathname === "/v2/payments")!;
    expect(created.body!.sequenceType).toBe("first");
    expect(created.body!.customerId).not.toBe("cst_amoraold");
    expect(mollie.customers.get(created.body!.customerId as string)).toBe(HERZKLANG_KEY);
    const stored = await env.DB.prepare("SELECT account, customer_id FROM payment_customers WHERE user_id = ?1")
      .bind(m.id)
      .first();
    expect(stored).toEqual({ account: "HERZKLANG", customer_id: created.body!.customerId });
  });
});

describe("the sandbox keeps each company's account apart, as Mollie does", () => {
  it("a Herzklang payment is made, paid, re-fetched and refunded in Herzklang's account; Amora's finds nothing", async () => {
    const m = await member({ brandId: 2 });
    const res = await post(
      "/credits/p1/ideal",
      { intent: "pay", intent_key: clickKey(), method: "ideal" },
      { cookie: m.cookie, host: "de.localhost" },
    );
    expect(res.status).toBe(302);
    const providerId = /\/sandbox\/(tr_\w+)$/.exec(res.headers.get("Location")!)![1]!;
    const stored = await env.DB.prepare("SELECT account FROM sandbox_objects WHERE id = ?1").bind(providerId).first();
    expect(stored).toEqual({ account: "HERZKLANG" });
    const ctx = { env, deliver: (r: Request) => SELF.fetch(r) } as unknown as AppLoadContext;
    expect(await sandboxProvider(ctx, "AMORA").getPayment(providerId)).toBeNull();
    expect((await sandboxProvider(ctx, "HERZKLANG").getPayment(providerId))?.status).toBe("open");

    // The tester pays; the sandbox calls the webhook, which re-fetches in Herzklang's account.
    await choose(providerId, "paid");
    const row = await env.DB.prepare("SELECT id, status FROM payments WHERE provider_ref = ?1")
      .bind(providerId)
      .first<{ id: string; status: string }>();
    expect(row!.status).toBe("paid");
    expect((await userRow(m.id))!.credits).toBe(60);

    // Amora's account cannot refund it; the refund of its own brand goes through in Herzklang's.
    await expect(
      sandboxProvider(ctx, "AMORA").createRefund({
        paymentId: providerId,
        amount: { cents: 100, currency: "EUR" },
        description: "x",
        metadata: {},
        idempotencyKey: clickKey(),
      }),
    ).rejects.toMatchObject({ status: 404 });
    const refunded = await requestRefund(ctx, await herzklang(), (await ownPayment(ctx, m.id, row!.id))!);
    expect(refunded).toMatchObject({ ok: true });
    const refund = await env.DB.prepare("SELECT account FROM sandbox_objects WHERE kind = 'refund' AND parent_id = ?1")
      .bind(providerId)
      .first();
    expect(refund).toEqual({ account: "HERZKLANG" });
  });
});

describe("the console", () => {
  it("the brand's page shows its company's Mollie account, whether its key is set and the mode, never the key", async () => {
    const admin = await createOperator("admin");
    const cookie = await operatorCookie(admin.id);
    const missing = await (await get("/admin/brands/2", { cookie })).text();
    expect(missing).toContain("Payment account");
    expect(missing).toContain("Herzklang GmbH");
    expect(missing).toContain("MOLLIE_API_KEY_HERZKLANG");
    expect(missing).toContain("The company&#x27;s Mollie key is not set");
    const saved = (env as unknown as Record<string, unknown>).MOLLIE_API_KEY_HERZKLANG;
    Object.assign(env, { MOLLIE_API_KEY_HERZKLANG: HERZKLANG_KEY });
    try {
      const set = await (await get("/admin/brands/2", { cookie })).text();
      expect(set).not.toContain(HERZKLANG_KEY);
      expect(set).not.toContain("Mollie key is not set");
      expect(set).toMatch(/Key set<\/dt><dd><span[^>]*>yes<\/span>/);
      expect(set).toMatch(/Mode<\/dt><dd>test</);
    } finally {
      Object.assign(env, { MOLLIE_API_KEY_HERZKLANG: saved });
    }
  });
});

describe("provider alerts", () => {
  it("finance marks an alert dealt with (who, when, what), audited; the dashboard counts only open ones", async () => {
    const finance = await createOperator("admin");
    const cookie = await operatorCookie(finance.id);
    const m = await member();
    const id = `pay_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status,
         provider_alert, provider_alert_at) VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', 'ideal', 'mollie', ?3, 'failed', 'provider says paid, we have failed', 1790000000)`,
    )
      .bind(id, m.id, `tr_${id.slice(4)}`)
      .run();
    const tile = async () =>
      Number(/<strong>(\d+)<\/strong>open provider alerts/.exec(await (await get("/admin", { cookie })).text())![1]);
    const open = await tile();
    expect(open).toBeGreaterThan(0);
    const page = await (await get(`/admin/payments/${id}`, { cookie })).text();
    expect(page).toContain("Mark dealt with");

    // A note is required; an alert changed since it was read is not closed.
    expect(
      await (
        await post(`/admin/payments/${id}`, { intent: "alert_dealt", alert_at: "1790000000", note: "" }, { cookie })
      ).text(),
    ).toContain("Write what was done");
    expect(
      await (
        await post(
          `/admin/payments/${id}`,
          { intent: "alert_dealt", alert_at: "1790000001", note: "Credited by hand" },
          { cookie },
        )
      ).text(),
    ).toContain("changed while you read it");

    const done = await post(
      `/admin/payments/${id}`,
      { intent: "alert_dealt", alert_at: "1790000000", note: "Mollie paid it; credits given by the webhook" },
      { cookie },
    );
    expect(done.status).toBe(302);
    const row = (await paymentRow(id))!;
    expect(row.provider_alert_dealt_by).toBe(finance.id);
    expect(row.provider_alert_dealt_at).toBeGreaterThan(0);
    expect(row.provider_alert_note).toBe("Mollie paid it; credits given by the webhook");
    const audit = (await auditRows(id)).filter((a) => a.action === "payment.alert_dealt");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ operatorId: finance.id, reason: "Mollie paid it; credits given by the webhook" });
    expect(await tile()).toBe(open - 1);
    const after = await (await get(`/admin/payments/${id}?dealt=1`, { cookie })).text();
    expect(after).toContain("Dealt with");
    expect(after).toContain(finance.email);
    expect(after).not.toContain("Mark dealt with");

    // Twice: refused, no second audit row.
    await post(
      `/admin/payments/${id}`,
      { intent: "alert_dealt", alert_at: "1790000000", note: "again, again" },
      { cookie },
    );
    expect((await auditRows(id)).filter((a) => a.action === "payment.alert_dealt")).toHaveLength(1);
  });
});
