/**
 * Payments that never hear back: a webhook blocked on the way or an outage longer than Mollie's retries
 * leaves a payment open. The scheduled sweep asks Mollie about every open or pending payment older than
 * a few minutes (a bank transfer until it expires), and the return page asks once when it still shows open.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SILENT_AFTER_S, sweepSilentPayments } from "../../app/models/payments/checks.server";
import paidFirst from "./mollie/payment-paid-first.json";
import openPayment from "./mollie/payment-open.json";
import {
  expectLedgerExplains,
  get,
  member,
  paymentRow,
  setProviderStatus,
  startPayment,
  userRow,
} from "./payments-support";
import { clone, fakeMollie, json, mollieContext } from "./mollie-support";

describe("the sweep of silent payments", () => {
  it("asks Mollie about open and pending payments past a few minutes, applies what it says once, and leaves the rest", async () => {
    const m = await member();
    const now = 1_795_000_000;
    const row = (id: string, ref: string, status: string, createdAgo: number, method = "ideal") =>
      env.DB.prepare(
        `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status, sequence_type, created_at, updated_at)
         VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', ?5, 'mollie', ?3, ?4, 'oneoff', ?6, ?6)`,
      ).bind(id, m.id, ref, status, method, now - createdAgo);
    const tag = crypto.randomUUID().slice(0, 6);
    const ids = {
      paid: `pay_paid_${tag}`,
      transfer: `pay_transfer_${tag}`,
      fresh: `pay_fresh_${tag}`,
      old: `pay_old_${tag}`,
      done: `pay_done_${tag}`,
    };
    await env.DB.batch([
      // Paid at Mollie 10 minutes ago; the webhook never arrived.
      row(ids.paid, "tr_Sw1PaidAb1", "open", 600),
      // A bank transfer from 10 days ago, still open at Mollie (the member has not transferred yet).
      row(ids.transfer, "tr_Sw2TrnsfAb", "open", 10 * 86_400, "wire_transfer"),
      // Too fresh to ask, too old to be open at Mollie still, or settled: not asked.
      row(ids.fresh, "tr_Sw3FreshAb", "open", 60),
      row(ids.old, "tr_Sw4OldAbcd", "open", 20 * 86_400),
      row(ids.done, "tr_Sw5DoneAbc", "paid", 600),
    ]);
    const money = { value: "19.95", currency: "EUR" };
    const calls = fakeMollie((call) => {
      const id = call.url.pathname.split("/")[3];
      if (id === "tr_Sw1PaidAb1")
        return json(200, {
          ...clone(paidFirst),
          id,
          sequenceType: "oneoff",
          amount: money,
          metadata: { paymentId: ids.paid },
        });
      return json(200, {
        ...clone(openPayment),
        id,
        method: "banktransfer",
        amount: money,
        metadata: { paymentId: id === "tr_Sw3FreshAb" ? ids.fresh : ids.transfer },
      });
    });
    const ctx = mollieContext();
    expect(await sweepSilentPayments(ctx, now)).toBe(2);
    expect(calls.map((c) => c.url.pathname).sort()).toEqual([
      "/v2/payments/tr_Sw1PaidAb1",
      "/v2/payments/tr_Sw2TrnsfAb",
    ]);
    expect((await paymentRow(ids.paid))!.status).toBe("paid");
    expect((await paymentRow(ids.transfer))!.status).toBe("open");
    expect((await userRow(m.id))!.credits).toBe(60);
    // Asked again within a few minutes: nobody is asked twice; later, the transfer still open and the once-fresh one.
    expect(await sweepSilentPayments(ctx, now + 60)).toBe(0);
    expect(await sweepSilentPayments(ctx, now + SILENT_AFTER_S + 1)).toBe(2);
    // Never asked first.
    expect(calls.slice(2).map((c) => c.url.pathname)).toEqual([
      "/v2/payments/tr_Sw3FreshAb",
      "/v2/payments/tr_Sw2TrnsfAb",
    ]);
    expect((await userRow(m.id))!.credits).toBe(60);
    await expectLedgerExplains(m.id);
  });
});

describe("the return page of a payment still open", () => {
  it("asks the provider once: paid there without a webhook, the page shows it paid and the credits are there", async () => {
    const m = await member();
    const { providerId, paymentId } = await startPayment(m.cookie);
    // The member paid; the webhook was lost on the way.
    await setProviderStatus(providerId, "paid", { paidAt: new Date().toISOString() });
    expect((await paymentRow(paymentId))!.status).toBe("open");
    const page = await get(`/credits/p1/ideal?payment=${paymentId}`, { cookie: m.cookie });
    expect(page.status).toBe(200);
    expect((await paymentRow(paymentId))!.status).toBe("paid");
    expect((await userRow(m.id))!.credits).toBe(60);
    await expectLedgerExplains(m.id);
  });

  it("asks once only: a payment still open at the provider is not asked again on every refresh", async () => {
    const m = await member();
    const { providerId, paymentId } = await startPayment(m.cookie);
    await get(`/credits/p1/ideal?payment=${paymentId}`, { cookie: m.cookie });
    const asked = (await paymentRow(paymentId))!.provider_checked_at;
    expect(asked).not.toBeNull();
    // Paid meanwhile, webhook lost: the page does not ask again (the sweep does, a few minutes on).
    await setProviderStatus(providerId, "paid", { paidAt: new Date().toISOString() });
    await get(`/credits/p1/ideal?payment=${paymentId}`, { cookie: m.cookie });
    expect((await paymentRow(paymentId))!.status).toBe("open");
  });
});
