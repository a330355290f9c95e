/**
 * Decision 090's provider answers by hand, through the sandbox that behaves like Mollie: a chargeback the bank reverses, a
 * direct debit the bank refuses with a reason code, PayPal that cannot leave a mandate, Apple Pay
 * listed only when asked, answers lost after the work was done, and the retired methods gone.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ledgerOf, spendViaWallet } from "./wallet-support";
import { SandboxProvider } from "../../app/lib/payments/sandbox.server";
import { recheck } from "../../app/models/payments/checks.server";
import type { AppLoadContext } from "@remix-run/cloudflare";
import {
  choose,
  clickKey,
  expectLedgerExplains,
  get,
  member,
  paymentRow,
  post,
  startPayment,
  userRow,
  webhook,
} from "./payments-support";

const sandbox = () => new SandboxProvider({ db: env.DB, deliver: (r) => SELF.fetch(r) });
const ctx = { env, deliver: (r: Request) => SELF.fetch(r) } as unknown as AppLoadContext;

describe("the sandbox behaves like Mollie", () => {
  it("a reversed chargeback gives back what the chargeback took, once", async () => {
    const m = await member();
    const p = await startPayment(m.cookie, "p1", "ideal");
    await choose(p.providerId, "paid");
    expect((await userRow(m.id))!.credits).toBe(60);
    await post(`/sandbox/${p.providerId}`, { outcome: "chargeback" });
    expect((await paymentRow(p.paymentId))!.status).toBe("charged_back");
    expect((await userRow(m.id))!.credits).toBe(0);
    const res = await post(`/sandbox/${p.providerId}`, { outcome: "reverse" });
    expect(res.status).toBe(302);
    expect((await paymentRow(p.paymentId))!.status).toBe("paid");
    expect((await userRow(m.id))!.credits).toBe(60);
    // Replays of the webhook and of the reversal change nothing.
    await webhook(p.providerId);
    await post(`/sandbox/${p.providerId}`, { outcome: "reverse" });
    expect((await userRow(m.id))!.credits).toBe(60);
    const ledger = {
      results: (await ledgerOf(m.id, (r) => r.ref_id === p.paymentId)).map((r) => ({
        reason: r.reason,
        delta: r.delta,
      })),
    };
    expect(ledger.results).toEqual([
      { reason: "purchase", delta: 60 },
      { reason: "chargeback", delta: -60 },
      { reason: "chargeback_reversed", delta: 60 },
    ]);
    await expectLedgerExplains(m.id);
  });

  it("a reversal gives back only what the chargeback could take (credits spent meanwhile are not made up)", async () => {
    const m = await member();
    const p = await startPayment(m.cookie, "p1", "ideal");
    await choose(p.providerId, "paid");
    expect(await spendViaWallet(m.id, 50, "message")).toBe(true);
    await post(`/sandbox/${p.providerId}`, { outcome: "chargeback" });
    expect((await userRow(m.id))!.credits).toBe(0);
    await post(`/sandbox/${p.providerId}`, { outcome: "reverse" });
    expect((await userRow(m.id))!.credits).toBe(10);
    await expectLedgerExplains(m.id);
  });

  it("a direct debit the bank refuses carries its reason code; the sandbox page offers the common ones", async () => {
    const s = sandbox();
    const customer = await s.createCustomer({
      name: "Jan",
      email: "jan@example.com",
      metadata: {},
      idempotencyKey: `c-${crypto.randomUUID()}`,
    });
    const mandate = await s.createMandate({
      customerId: customer.id,
      method: "directdebit",
      consumerName: "Jan Jansen",
      consumerAccount: "NL91ABNA0417164300",
      signatureDate: "2026-11-24",
      mandateReference: "T-1",
      idempotencyKey: `m-${crypto.randomUUID()}`,
    });
    const created = await s.createPayment({
      amount: { cents: 995, currency: "EUR" },
      description: "x",
      redirectUrl: "http://localhost/credits",
      webhookUrl: "http://localhost/api/payments/webhook",
      metadata: {},
      idempotencyKey: `p-${crypto.randomUUID()}`,
      sequenceType: "recurring",
      customerId: customer.id,
      mandateId: mandate.id,
    });
    expect(created.status).toBe("pending");
    const page = await (await get(`/sandbox/${created.id}`)).text();
    expect(page).toContain('data-testid="sandbox-bank-refusal"');
    expect(page).toContain("(AM04)");
    expect((await post(`/sandbox/${created.id}`, { outcome: "bank_refusal", bankReason: "AM04" })).status).toBe(302);
    expect(await s.getPayment(created.id)).toMatchObject({
      status: "failed",
      failureReason: "AM04",
      bankReason: "Insufficient funds",
    });
    expect((await post(`/sandbox/${created.id}`, { outcome: "bank_refusal", bankReason: "XX99" })).status).toBe(400);
  });

  it("lists Apple Pay only when asked with includeWallets; PayPal is not listed for first payments and cannot be one", async () => {
    const s = sandbox();
    const amount = { cents: 1995, currency: "EUR" };
    expect((await s.listMethods({ country: "NL", amount, sequenceType: "oneoff" })).map((m) => m.id)).not.toContain(
      "applepay",
    );
    expect(
      (await s.listMethods({ country: "NL", amount, sequenceType: "oneoff", includeWallets: ["applepay"] })).map(
        (m) => m.id,
      ),
    ).toContain("applepay");
    expect((await s.listMethods({ country: "NL", amount, sequenceType: "first" })).map((m) => m.id)).not.toContain(
      "paypal",
    );
    const e = await s
      .createPayment({
        amount,
        description: "x",
        method: "paypal",
        redirectUrl: "http://localhost/",
        webhookUrl: "http://localhost/w",
        metadata: {},
        idempotencyKey: `pp-${crypto.randomUUID()}`,
        sequenceType: "first",
        customerId: "cst_x",
      })
      .catch((x) => x);
    expect(e.status).toBe(422);
  });

  it("PayPal is sold one-off (no mandate), and the repeat-order page names only methods that leave one", async () => {
    const m = await member();
    const p = await startPayment(m.cookie, "p0", "paypal");
    expect((await paymentRow(p.paymentId))!.sequence_type).toBe("oneoff");
    await choose(p.providerId, "paid");
    expect((await paymentRow(p.paymentId))!.mandate_id).toBeNull();
    const page = await (await get("/credits/repeat-order", { cookie: m.cookie })).text();
    expect(page).toContain("Pay once with Credit card or SEPA direct debit to use it next time.");
    expect(page).not.toMatch(/Pay once with[^<]*PayPal/);
  });

  it("a repeat order whose answer is lost after the charge: checking, then the re-check credits it once", async () => {
    const m = await member();
    const first = await startPayment(m.cookie, "p0", "creditcard");
    await choose(first.providerId, "paid_timeout_recurring");
    expect((await userRow(m.id))!.credits).toBe(25);
    const res = await post("/credits/repeat-order", { intent: "repeat", intent_key: clickKey() }, { cookie: m.cookie });
    const id = /payment=([\w-]+)/.exec(res.headers.get("Location")!)![1]!;
    // The sandbox called the webhook before the answer was lost: the webhook already resolved it.
    const row = await paymentRow(id);
    expect(row!.status).toBe("paid");
    expect((await userRow(m.id))!.credits).toBe(50);
    expect(await recheck(ctx, { kind: "payment", paymentId: id })).toBe("settled");
    expect((await userRow(m.id))!.credits).toBe(50);
    await expectLedgerExplains(m.id);
  });

  it("a refund whose answer is lost: checking, credits not given back; the re-check finds it", async () => {
    const m = await member();
    const p = await startPayment(m.cookie, "p1", "ideal");
    await choose(p.providerId, "paid");
    await post(`/sandbox/${p.providerId}`, { outcome: "refund_timeout" });
    const res = await post(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    expect(res.status).toBeLessThan(500);
    const refund = await env.DB.prepare("SELECT id, status FROM refunds WHERE payment_id = ?1")
      .bind(p.paymentId)
      .first<{ id: string; status: string }>();
    expect(refund!.status).toBe("checking");
    expect((await userRow(m.id))!.credits).toBe(0);
    expect(await recheck(ctx, { kind: "refund", refundId: refund!.id })).toBe("found");
    expect((await env.DB.prepare("SELECT status FROM refunds WHERE id = ?1").bind(refund!.id).first())!.status).toBe(
      "pending",
    );
    expect((await userRow(m.id))!.credits).toBe(0);
    await expectLedgerExplains(m.id);
  });

  it("Giropay and Sofort are gone from the data and the site", async () => {
    const n = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM payment_methods WHERE method IN ('giropay', 'sofort') OR provider_method IN ('giropay', 'sofort')",
    ).first<{ n: number }>();
    expect(n!.n).toBe(0);
    const m = await member();
    expect((await get("/credits/p1/giropay", { cookie: m.cookie })).status).toBe(404);
    expect((await get("/credits/p1/sofort", { cookie: m.cookie })).status).toBe(404);
  });
});
