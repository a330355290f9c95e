/**
 * Mollie's settlements (decision 209), on recorded answers of its Settlements API (validated against its
 * published description in mollie-schemas.test.ts): read with the organization token, imported and
 * reconciled against our payments, refunds and chargebacks with Mollie's fees, shown in the finance
 * console and named in the accounting CSV; the sandbox settles its own payments the same way.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { MOLLIE_API, MollieProvider } from "../../app/lib/payments/mollie.server";
import { importSettlements, settlementsOfMonth } from "../../app/models/settlements.server";
import { SANDBOX_FEE_CENTS } from "../../app/lib/payments/sandbox.server";
import settlementsList from "./mollie/settlements-list.json";
import settlementPayments from "./mollie/settlement-payments.json";
import settlementRefunds from "./mollie/settlement-refunds.json";
import settlementChargebacks from "./mollie/settlement-chargebacks.json";
import { clone, fakeMollie, json, mollieContext } from "./mollie-support";
import { choose, member, startPayment } from "./payments-support";
import { createOperator, operatorCookie } from "./admin-support";
import { get, post } from "./fixtures";

const TOKEN = "access_Pq9xR2dWm4Lk7Vb3Nc8Hs5Tg1Jf6Yz0a";

/** Mollie's Settlements API as recorded: November 2026 has one settlement, stl_Amr2611x01. */
function settlementsApi() {
  return fakeMollie((call) => {
    const p = call.url.pathname;
    if (p === "/v2/settlements") return json(200, clone(settlementsList));
    if (p === "/v2/settlements/stl_Amr2611x01/payments") return json(200, clone(settlementPayments));
    if (p === "/v2/settlements/stl_Amr2611x01/refunds") return json(200, clone(settlementRefunds));
    if (p === "/v2/settlements/stl_Amr2611x01/chargebacks") return json(200, clone(settlementChargebacks));
    return json(404, { status: 404, title: "Not Found", detail: "No such settlement" });
  });
}

const withToken = (ctx: AppLoadContext) =>
  ({ ...ctx, env: { ...ctx.env, MOLLIE_ACCESS_TOKEN_AMORA: TOKEN } }) as unknown as AppLoadContext;

/** Our records of what the settlement carries: two payments (the second charged back) and a refund of the first. */
async function ourRecords(o: { refundCents?: number } = {}) {
  const m = await member({ paidUser: true });
  const paid = Date.UTC(2026, 10, 10) / 1000;
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status,
         sequence_type, payment_country, provider_country, paid_at, created_at, updated_at)
       VALUES ('pay_s1', ?1, 1, 'p1', 60, 1995, 'EUR', 'ideal', 'mollie', 'tr_StlPayQx1a', 'paid', 'oneoff', 'NL', 'BE', ?2, ?2, ?2)`,
    ).bind(m.id, paid),
    env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status,
         sequence_type, payment_country, provider_country, charged_back_cents, paid_at, created_at, updated_at)
       VALUES ('pay_s2', ?1, 1, 'p0', 25, 995, 'EUR', 'creditcard', 'mollie', 'tr_StlPayQx2b', 'charged_back', 'oneoff', 'NL', 'NL', 995, ?2, ?2, ?2 + 86400 * 15)`,
    ).bind(m.id, paid),
    env.DB.prepare(
      `INSERT INTO refunds (id, payment_id, user_id, credits, amount_cents, currency, provider_ref, status, created_at)
       VALUES ('ref_s1', 'pay_s1', ?1, 18, ?2, 'EUR', 're_StlRefQx1a', 'refunded', ?3)`,
    ).bind(m.id, o.refundCents ?? 595, paid + 86_400 * 10),
  ]);
  return m;
}

describe("Mollie's settlements", () => {
  it("are read with the organization token, page by page, with the fees of their periods", async () => {
    const calls = settlementsApi();
    const mollie = new MollieProvider(TOKEN, fetch, MOLLIE_API);
    const [s] = await mollie.listSettlements(2026, 11);
    expect(s).toEqual({
      id: "stl_Amr2611x01",
      reference: "18250093.2611.01",
      status: "paidout",
      amount: { cents: 2528, currency: "EUR" },
      fees: { cents: 122, currency: "EUR" },
      feesVat: { cents: 21, currency: "EUR" },
      createdAt: "2026-11-30T04:12:09+00:00",
      settledAt: "2026-12-01T09:41:44+00:00",
    });
    expect(calls[0]!.url.searchParams.get("year")).toBe("2026");
    expect(calls[0]!.url.searchParams.get("month")).toBe("11");
    const items = await mollie.settlementItems("stl_Amr2611x01");
    expect(items.map((i) => [i.kind, i.id, i.paymentId, i.settled?.cents])).toEqual([
      ["payment", "tr_StlPayQx1a", "tr_StlPayQx1a", 1995],
      ["payment", "tr_StlPayQx2b", "tr_StlPayQx2b", 995],
      ["payment", "tr_StlForQx3c", "tr_StlForQx3c", 1250],
      ["refund", "re_StlRefQx1a", "tr_StlPayQx1a", -595],
      ["chargeback", "chb_StlChbQx1a", "tr_StlPayQx2b", -995],
    ]);
    // Settlements are live objects: a token without a mode of its own reads them (a test_ key would refuse them).
    expect(calls.every((c) => c.url.origin === "https://api.mollie.com")).toBe(true);
  });

  it("are imported and reconciled: ours ok, a refund of another amount differs, a payment not ours is unknown; fees explain the payout; importing twice changes nothing", async () => {
    await ourRecords({ refundCents: 495 });
    settlementsApi();
    const ctx = withToken(mollieContext());
    expect(await importSettlements(ctx, "2026-11", 1_796_000_000)).toEqual({
      ok: true,
      settlements: 1,
      lines: 5,
      notOk: 2,
    });
    expect(await importSettlements(ctx, "2026-11", 1_796_000_000)).toMatchObject({ ok: true, lines: 5 });
    const lines = await env.DB.prepare(
      "SELECT kind, provider_ref, payment_id, settled_cents, expected_cents, state FROM settlement_lines ORDER BY kind, provider_ref",
    ).all();
    expect(lines.results).toEqual([
      {
        kind: "chargeback",
        provider_ref: "chb_StlChbQx1a",
        payment_id: "pay_s2",
        settled_cents: -995,
        expected_cents: -995,
        state: "ok",
      },
      {
        kind: "payment",
        provider_ref: "tr_StlForQx3c",
        payment_id: null,
        settled_cents: 1250,
        expected_cents: null,
        state: "unknown",
      },
      {
        kind: "payment",
        provider_ref: "tr_StlPayQx1a",
        payment_id: "pay_s1",
        settled_cents: 1995,
        expected_cents: 1995,
        state: "ok",
      },
      {
        kind: "payment",
        provider_ref: "tr_StlPayQx2b",
        payment_id: "pay_s2",
        settled_cents: 995,
        expected_cents: 995,
        state: "ok",
      },
      {
        kind: "refund",
        provider_ref: "re_StlRefQx1a",
        payment_id: "pay_s1",
        settled_cents: -595,
        expected_cents: -495,
        state: "differs",
      },
    ]);
    const [s] = await settlementsOfMonth(env.DB, "2026-11");
    expect(s).toMatchObject({ feesCents: 122, feesVatCents: 21, amountCents: 2528, unexplainedCents: 0 });
    expect(s!.payments).toMatchObject({ cents: 4240, count: 3, notOk: 1 });

    // Finance sees it in the console, and the accounting CSV names each line's settlement and the payer's country.
    const op = await createOperator("finance");
    const cookie = await operatorCookie(op.id);
    const page = await (await get("/admin/settlements?month=2026-11", { cookie })).text();
    expect(page).toContain("stl_Amr2611x01");
    expect(page).toContain("tr_StlForQx3c");
    expect(page).toContain("differs");
    expect(page).toContain("-€1.22");
    const csv = await (await post("/admin/payments/export", { brand: "1", month: "2026-11" }, { cookie })).text();
    const rows = csv
      .trimEnd()
      .split("\r\n")
      .map((l) => l.split(","));
    const col = (name: string) => rows[0]!.indexOf(name);
    const s1 = rows.find((r) => r[0] === "payment" && r[1] === "pay_s1")!;
    expect([s1[col("payer_country")], s1[col("payer_country_differs")]]).toEqual(["BE", "yes"]);
    expect([s1[col("settlement_id")], s1[col("settled")], s1[col("settlement_check")]]).toEqual([
      "stl_Amr2611x01",
      "19.95",
      "ok",
    ]);
    const refund = rows.find((r) => r[0] === "refund" && r[1] === "ref_s1")!;
    expect([refund[col("settled")], refund[col("settlement_check")]]).toEqual(["-5.95", "differs"]);
    const chargeback = rows.find((r) => r[0] === "chargeback" && r[1] === "pay_s2")!;
    expect(chargeback[col("settlement_id")]).toBe("stl_Amr2611x01");
  });

  it("are not imported without an organization token (a payments key cannot read them): nothing asked, nothing written", async () => {
    const calls = settlementsApi();
    expect(await importSettlements(mollieContext(), "2026-11")).toEqual({ ok: false, reason: "no-source" });
    expect(calls).toHaveLength(0);
  });

  it("the sandbox settles its paid payments of the month with its fee", async () => {
    const m = await member();
    const { providerId, paymentId } = await startPayment(m.cookie, "p1", "ideal");
    await choose(providerId, "paid");
    const row = await env.DB.prepare("SELECT paid_at, amount_cents FROM payments WHERE id = ?1")
      .bind(paymentId)
      .first<{ paid_at: number; amount_cents: number }>();
    const month = new Date(row!.paid_at * 1000).toISOString().slice(0, 7);
    const ctx = { env, deliver: (r: Request) => SELF.fetch(r) } as unknown as AppLoadContext;
    expect(await importSettlements(ctx, month)).toMatchObject({ ok: true, settlements: 1 });
    const line = await env.DB.prepare(
      "SELECT l.state, l.settled_cents, s.fees_cents FROM settlement_lines l JOIN settlements s ON s.id = l.settlement_id WHERE l.payment_id = ?1",
    )
      .bind(paymentId)
      .first();
    expect(line).toMatchObject({ state: "ok", settled_cents: row!.amount_cents });
    expect((line!.fees_cents as number) % SANDBOX_FEE_CENTS).toBe(0);
  });
});
