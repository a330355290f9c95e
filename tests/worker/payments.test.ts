import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ledgerOf } from "./wallet-support";
import {
  choose,
  expectLedgerExplains,
  get,
  member,
  paymentRow,
  setProviderStatus,
  startPayment,
  userRow,
  webhook,
} from "./payments-support";

describe("checkout through the sandbox", () => {
  it("a free member buys p1 with iDEAL: credits, premium and a ledger row, once", async () => {
    const m = await member({ credits: 0 });
    const { providerId, paymentId } = await startPayment(m.cookie, "p1", "ideal");
    expect((await paymentRow(paymentId))!.status).toBe("open");
    const page = await get(`/sandbox/${providerId}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("19.95");

    const back = await choose(providerId, "paid");
    expect(back).toBe(`http://localhost/credits/p1/ideal?payment=${paymentId}`);
    expect((await paymentRow(paymentId))!.status).toBe("paid");
    expect(await userRow(m.id)).toEqual({ credits: 60, paid_user: 1 });
    await expectLedgerExplains(m.id);

    const result = await get(`/credits/p1/ideal?payment=${paymentId}`, { cookie: m.cookie });
    const html = await result.text();
    expect(html).toContain("Payment complete");
    expect(html).toContain("60 credits");
  });

  it("the return page credits nothing by itself", async () => {
    const m = await member();
    const { paymentId } = await startPayment(m.cookie);
    const page = await get(`/credits/p1/ideal?payment=${paymentId}`, { cookie: m.cookie });
    expect(await page.text()).toContain("being processed");
    expect(await userRow(m.id)).toEqual({ credits: 0, paid_user: 0 });
  });

  it("another member's payment id is a 404", async () => {
    const a = await member();
    const b = await member();
    const { paymentId } = await startPayment(a.cookie);
    expect((await get(`/credits/p1/ideal?payment=${paymentId}`, { cookie: b.cookie })).status).toBe(404);
  });

  it("10 concurrent webhooks and replays credit once", async () => {
    const m = await member();
    const { providerId, paymentId } = await startPayment(m.cookie);
    await setProviderStatus(providerId, "paid", { paidAt: new Date().toISOString() });
    const answers = await Promise.all(Array.from({ length: 10 }, () => webhook(providerId)));
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (let i = 0; i < 3; i++) expect((await webhook(providerId)).status).toBe(200);
    expect(await userRow(m.id)).toEqual({ credits: 60, paid_user: 1 });
    const ledger = { n: (await ledgerOf(m.id, (r) => r.ref_id === paymentId)).length };
    expect(ledger!.n).toBe(1);
    await expectLedgerExplains(m.id);
  });

  it("every transition: open → pending → paid; failed, canceled and expired are final", async () => {
    const m = await member();
    const a = await startPayment(m.cookie);
    await setProviderStatus(a.providerId, "pending");
    await webhook(a.providerId);
    expect((await paymentRow(a.paymentId))!.status).toBe("pending");
    expect((await userRow(m.id))!.credits).toBe(0);
    await setProviderStatus(a.providerId, "paid");
    await webhook(a.providerId);
    expect((await paymentRow(a.paymentId))!.status).toBe("paid");
    // A paid payment never goes back, whatever the provider says later.
    await setProviderStatus(a.providerId, "failed");
    await webhook(a.providerId);
    expect((await paymentRow(a.paymentId))!.status).toBe("paid");
    expect((await userRow(m.id))!.credits).toBe(60);

    for (const outcome of ["failed", "canceled", "expired"] as const) {
      const p = await startPayment(m.cookie, "p0", "ideal");
      await choose(p.providerId, outcome);
      expect((await paymentRow(p.paymentId))!.status).toBe(outcome);
      await setProviderStatus(p.providerId, "paid");
      await webhook(p.providerId);
      expect((await paymentRow(p.paymentId))!.status).toBe(outcome);
    }
    expect((await userRow(m.id))!.credits).toBe(60);
    await expectLedgerExplains(m.id);
  });

  it("pending, then paid later: the page waits, then shows the credits", async () => {
    const m = await member();
    const p = await startPayment(m.cookie);
    await choose(p.providerId, "pending");
    const waiting = await (await get(`/credits/p1/ideal?payment=${p.paymentId}`, { cookie: m.cookie })).text();
    expect(waiting).toContain("Check again");
    expect((await userRow(m.id))!.credits).toBe(0);
    await choose(p.providerId, "settle");
    const done = await (await get(`/credits/p1/ideal?payment=${p.paymentId}`, { cookie: m.cookie })).text();
    expect(done).toContain("Payment complete");
    expect((await userRow(m.id))!.credits).toBe(60);
  });

  it("a failed payment offers every other method as a one-click retry", async () => {
    const m = await member();
    const p = await startPayment(m.cookie);
    await choose(p.providerId, "failed");
    const html = await (await get(`/credits/p1/ideal?payment=${p.paymentId}`, { cookie: m.cookie })).text();
    expect(html).toContain("did not go through");
    expect(html).toContain('action="/credits/p1/creditcard"');
    expect(html).toContain('action="/credits/p1/paypal"');
  });

  it("a webhook for an unknown id, a malformed id or a huge body changes nothing", async () => {
    expect((await webhook("tr_doesnotexist")).status).toBe(200);
    expect((await webhook("'; DROP TABLE payments; --")).status).toBe(200);
    const huge = await webhook("tr_" + "x".repeat(5000));
    expect(huge.status).toBe(400);
  });

  it("a provider payment whose amount differs from ours is not applied", async () => {
    const m = await member();
    const p = await startPayment(m.cookie);
    await setProviderStatus(p.providerId, "paid", { amount: { cents: 1, currency: "EUR" } });
    await webhook(p.providerId);
    expect((await paymentRow(p.paymentId))!.status).toBe("open");
    expect((await userRow(m.id))!.credits).toBe(0);
  });

  it("a method not offered in the payment country is refused", async () => {
    const m = await member();
    const res = await get("/credits/p1/blik", { cookie: m.cookie });
    expect(await res.text()).toContain("not available in");
  });
});

describe("provider choice", () => {
  it("the sandbox is refused in production; production needs the company's live Mollie key", async () => {
    const { paymentProvider, sandboxProvider } = await import("../../app/lib/payments/index.server");
    const amora = { account: "AMORA", profileId: null };
    const prod = { env: { ...env, ENVIRONMENT: "production" }, deliver: async () => new Response() } as never;
    expect(() => sandboxProvider(prod)).toThrow();
    expect(() => paymentProvider(prod, amora)).toThrow(/MOLLIE_API_KEY_AMORA/);
    const testKey = {
      env: { ...env, ENVIRONMENT: "production", MOLLIE_API_KEY_AMORA: "test_abc" },
      deliver: async () => new Response(),
    } as never;
    expect(() => paymentProvider(testKey, amora)).toThrow(/live_/);
    const live = {
      env: { ...env, ENVIRONMENT: "production", MOLLIE_API_KEY_AMORA: "live_abc" },
      deliver: async () => new Response(),
    } as never;
    expect(paymentProvider(live, amora).name).toBe("mollie");
    // Another company's key is never used for Amora's account.
    expect(() => paymentProvider(live, { account: "HERZKLANG", profileId: null })).toThrow(/MOLLIE_API_KEY_HERZKLANG/);
    expect(paymentProvider({ env, deliver: async () => new Response() } as never, amora).name).toBe("sandbox");
    // Outside production only a test_ key: a live key there is refused before any request.
    const liveOutside = {
      env: { ...env, PAYMENT_PROVIDER: "mollie", MOLLIE_API_KEY_AMORA: "live_abc" },
      deliver: async () => new Response(),
    } as never;
    expect(() => paymentProvider(liveOutside, amora)).toThrow(/test_/);
  });
});
