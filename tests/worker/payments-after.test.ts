/**
 * After the fact (decision 095): Mollie calls the payment's webhook when one of its refunds changes status
 * or the payment is charged back. The webhook re-reads the payment and applies each change once:
 * refund statuses move forward only, a failed refund gives its credits back, a chargeback takes the
 * purchase's credits back (never below zero) and marks the payment charged back.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { ledgerOf, spendViaWallet } from "./wallet-support";
import {
  choose,
  expectLedgerExplains,
  get,
  member,
  paymentRow,
  post,
  startPayment,
  userRow,
  webhook,
} from "./payments-support";

async function spend(userId: string, credits: number) {
  expect(await spendViaWallet(userId, credits, "photo")).toBe(true);
}

async function bought(pkg = "p1") {
  const m = await member();
  const p = await startPayment(m.cookie, pkg, "ideal");
  await choose(p.providerId, "paid");
  return { m, p };
}

async function refundOf(paymentId: string) {
  return env.DB.prepare("SELECT id, credits, amount_cents, status, provider_ref FROM refunds WHERE payment_id = ?1")
    .bind(paymentId)
    .first<{
      id: string;
      credits: number;
      amount_cents: number;
      status: string;
      provider_ref: string;
    }>();
}

async function ledger(userId: string, reason: string) {
  return (await ledgerOf(userId, (r) => r.reason === reason)).map((r) => ({ delta: r.delta, ref_id: r.ref_id }));
}

/** The sandbox plays the bank: a refund arrives or fails (then it calls the webhook, as Mollie does). */
async function bankSettlesRefund(providerId: string, refundId: string, outcome: "refunded" | "failed") {
  const res = await post(`/sandbox/${providerId}`, { refund: outcome, refundId });
  expect(res.status).toBe(302);
}

const replay = (providerId: string, n = 10) => Promise.all(Array.from({ length: n }, () => webhook(providerId)));

describe("refund status after the fact", () => {
  it("a refund that arrives becomes refunded once; replays change nothing; the receipt shows it", async () => {
    const { m, p } = await bought();
    await spend(m.id, 20);
    await post(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    const before = await refundOf(p.paymentId);
    expect(before).toMatchObject({ credits: 40, status: "pending" });
    const sandboxPage = await (await get(`/sandbox/${p.providerId}`)).text();
    expect(sandboxPage).toContain('data-testid="sandbox-refund"');

    // Counted once in Analytics Engine (decision 170), by the check that moved it, not by the replays.
    const counted = vi.spyOn(env.METRICS!, "writeDataPoint");
    await bankSettlesRefund(p.providerId, before!.provider_ref, "refunded");
    expect((await refundOf(p.paymentId))!.status).toBe("refunded");
    for (const r of await replay(p.providerId)) expect(r.status).toBe(200);
    expect((await refundOf(p.paymentId))!.status).toBe("refunded");
    const refunds = counted.mock.calls.filter(([point]) => point?.indexes?.[0] === "refund");
    counted.mockRestore();
    expect(refunds).toEqual([[{ indexes: ["refund"], blobs: ["refund", expect.any(String)], doubles: [1330] }]]);
    expect(await userRow(m.id)).toMatchObject({ credits: 0 });
    expect(await ledger(m.id, "refund")).toEqual([{ delta: -40, ref_id: p.paymentId }]);
    await expectLedgerExplains(m.id);
    const page = await (await get(`/transactions/${p.paymentId}`, { cookie: m.cookie })).text();
    expect(page).toMatch(/40 credits, €13\.30: refunded/);
    // A refunded refund never moves again, whatever the bank is told later.
    const again = await post(`/sandbox/${p.providerId}`, { refund: "failed", refundId: before!.provider_ref });
    expect(again.status).toBe(302);
    expect((await refundOf(p.paymentId))!.status).toBe("refunded");
  });

  it("a refund that fails gives the credits back once, even with 10 webhooks at once; a new refund can then be asked", async () => {
    const { m, p } = await bought();
    await spend(m.id, 20);
    await post(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    const r = (await refundOf(p.paymentId))!;
    expect(await userRow(m.id)).toMatchObject({ credits: 0 });
    // The bank fails the refund; its webhook and 10 more race.
    await Promise.all([bankSettlesRefund(p.providerId, r.provider_ref, "failed"), replay(p.providerId)]);
    await replay(p.providerId);
    expect((await refundOf(p.paymentId))!.status).toBe("failed");
    expect(await userRow(m.id)).toMatchObject({ credits: 40 });
    expect(await ledger(m.id, "refund")).toEqual([
      { delta: -40, ref_id: p.paymentId },
      { delta: 40, ref_id: p.paymentId },
    ]);
    await expectLedgerExplains(m.id);
    const page = await (await get(`/transactions/${p.paymentId}`, { cookie: m.cookie })).text();
    expect(page).toMatch(/40 credits, €13\.30: failed/);
    expect(page).toContain('value="refund"');
  });

  it("a webhook naming a refund that is not ours changes nothing", async () => {
    const { m, p } = await bought();
    await post(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    const r = (await refundOf(p.paymentId))!;
    await env.DB.prepare("UPDATE refunds SET provider_ref = 're_someoneelse' WHERE id = ?1").bind(r.id).run();
    await bankSettlesRefund(p.providerId, r.provider_ref, "failed");
    expect((await refundOf(p.paymentId))!.status).toBe("pending");
    expect(await userRow(m.id)).toMatchObject({ credits: 0 });
  });
});

describe("chargebacks", () => {
  it("takes back what is left of the purchase, notes what was spent, marks the payment charged back: once under 10 racing webhooks", async () => {
    const { m, p } = await bought();
    await spend(m.id, 20);
    const res = await post(`/sandbox/${p.providerId}`, { outcome: "chargeback" });
    expect(res.status).toBe(302);
    await replay(p.providerId);
    expect(await paymentRow(p.paymentId)).toMatchObject({
      status: "charged_back",
      charged_back_cents: 1995,
      chargeback_unrecovered_credits: 20,
    });
    expect(await userRow(m.id)).toMatchObject({ credits: 0 });
    expect(await ledger(m.id, "chargeback")).toEqual([{ delta: -40, ref_id: p.paymentId }]);
    await expectLedgerExplains(m.id);

    const list = await (await get("/transactions", { cookie: m.cookie })).text();
    expect(list).toContain("Charged back");
    const one = await (await get(`/transactions/${p.paymentId}`, { cookie: m.cookie })).text();
    expect(one).toContain('data-testid="chargeback"');
    expect(one).toContain("Your bank reversed this payment (€19.95)");
    expect(one).not.toContain('value="refund"');
    // No refund of a charged-back payment, and no repeat order on it.
    await post(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    expect(await refundOf(p.paymentId)).toBeNull();
  });

  it("never below zero, and only this purchase's credits: other credits stay", async () => {
    const m = await member();
    const a = await startPayment(m.cookie, "p0", "ideal");
    await choose(a.providerId, "paid");
    const b = await startPayment(m.cookie, "p1", "ideal");
    await choose(b.providerId, "paid");
    expect(await userRow(m.id)).toMatchObject({ credits: 85 });
    await post(`/sandbox/${a.providerId}`, { outcome: "chargeback" });
    expect(await userRow(m.id)).toMatchObject({ credits: 60 });
    expect(await paymentRow(a.paymentId)).toMatchObject({ status: "charged_back", chargeback_unrecovered_credits: 0 });
    await spend(m.id, 60);
    await post(`/sandbox/${b.providerId}`, { outcome: "chargeback" });
    expect(await userRow(m.id)).toMatchObject({ credits: 0 });
    expect(await paymentRow(b.paymentId)).toMatchObject({ status: "charged_back", chargeback_unrecovered_credits: 60 });
    expect(await ledger(m.id, "chargeback")).toEqual([
      { delta: -25, ref_id: a.paymentId },
      { delta: 0, ref_id: b.paymentId },
    ]);
    await expectLedgerExplains(m.id);
  });

  it("after a partial refund only the unrefunded credits go; a refund failing after the chargeback gives nothing back", async () => {
    const { m, p } = await bought();
    await spend(m.id, 20);
    await post(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    const r = (await refundOf(p.paymentId))!;
    await post(`/sandbox/${p.providerId}`, { outcome: "chargeback" });
    // 60 bought, 40 refunded (pending), 20 spent: nothing left to take, 20 not recovered.
    expect(await paymentRow(p.paymentId)).toMatchObject({ status: "charged_back", chargeback_unrecovered_credits: 20 });
    await bankSettlesRefund(p.providerId, r.provider_ref, "failed");
    await replay(p.providerId, 5);
    expect((await refundOf(p.paymentId))!.status).toBe("failed");
    expect(await userRow(m.id)).toMatchObject({ credits: 0 });
    await expectLedgerExplains(m.id);
  });

  it("a chargeback webhook for an unpaid payment changes nothing", async () => {
    const m = await member();
    const p = await startPayment(m.cookie, "p1", "ideal");
    await choose(p.providerId, "failed");
    const res = await post(`/sandbox/${p.providerId}`, { outcome: "chargeback" });
    expect(res.status).toBe(302);
    expect(await paymentRow(p.paymentId)).toMatchObject({ status: "failed", charged_back_cents: null });
    expect(await ledger(m.id, "chargeback")).toEqual([]);
  });
});
