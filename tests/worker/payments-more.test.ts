import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { appSetCookie } from "./fixtures";
import { spendViaWallet } from "./wallet-support";
import {
  choose,
  expectLedgerExplains,
  get,
  member,
  paymentRow,
  post,
  startPayment,
  userRow,
  clickKey,
} from "./payments-support";

/** Spends credits the way the chat does: through the member's wallet (decision 189). */
async function spendCredits(_db: D1Database, userId: string, cost: number, reason: "photo") {
  return spendViaWallet(userId, cost, reason);
}

async function buy(cookie: string, pkg: string, method: string, outcome = "paid") {
  const p = await startPayment(cookie, pkg, method);
  await choose(p.providerId, outcome);
  return p;
}

describe("methods per country", () => {
  const methodsOn = async (country: string) => {
    const m = await member();
    const html = await (
      await get("/credits/p1", { cookie: m.cookie.replace("dev_country=NL", `dev_country=${country}`) })
    ).text();
    const list = /data-testid="payment-methods">(.*?)<\/ul>/s.exec(html)![1]!;
    return [...list.matchAll(/href="\/credits\/p1\/(\w+)[?#"]/g)].map((x) => x[1]);
  };

  it("offers the country's methods in the order people there use them; switched-off schemes never", async () => {
    expect((await methodsOn("NL"))[0]).toBe("ideal");
    expect((await methodsOn("BE"))[0]).toBe("bancontact");
    expect((await methodsOn("AT"))[0]).toBe("eps");
    expect((await methodsOn("FR"))[0]).toBe("carte_bancaire");
    expect((await methodsOn("IT"))[0]).toBe("satispay");
    expect((await methodsOn("DK")).slice(0, 2)).toEqual(["mobilepay", "dankort"]);
    const de = await methodsOn("DE");
    expect(de).not.toContain("giropay");
    expect(de).not.toContain("sofort");
    expect(de).not.toContain("ideal");
    // This brand sells in EUR: methods that only take SEK, NOK, PLN or CHF are not offered (payments-currency.test.ts).
    expect(await methodsOn("SE")).not.toContain("swish");
    expect(await methodsOn("PL")).toContain("przelewy24");
    expect(await methodsOn("PL")).not.toContain("blik");
    // A country without its own list gets the general one.
    expect((await methodsOn("GB"))[0]).toBe("creditcard");
  });

  it("the payment country can be changed and is kept (paymentCountry)", async () => {
    const m = await member();
    const res = await post("/credits/p1", { intent: "country", country: "BE" }, { cookie: m.cookie });
    expect(res.status).toBe(302);
    expect(appSetCookie(res)).toContain("paymentCountry=BE");
    const html = await (await get("/credits/p1", { cookie: `${m.cookie}; paymentCountry=BE` })).text();
    expect(html).toContain('href="/credits/p1/bancontact#checkout"');
    const bad = await post("/credits/p1", { intent: "country", country: "<script>" }, { cookie: m.cookie });
    expect(bad.status).toBe(200);
    expect(appSetCookie(bad)).toBeNull();
  });
});

describe("repeat order", () => {
  it("re-buys the last card package on its mandate, without a redirect", async () => {
    const m = await member();
    await buy(m.cookie, "p0", "creditcard");
    expect(await userRow(m.id)).toEqual({ credits: 25, paid_user: 1 });
    const page = await (await get("/credits/repeat-order", { cookie: m.cookie })).text();
    expect(page).toContain("Buy 25 credits again");
    const res = await post("/credits/repeat-order", { intent: "repeat", intent_key: clickKey() }, { cookie: m.cookie });
    expect(res.status).toBe(302);
    const id = /payment=([\w-]+)/.exec(res.headers.get("Location")!)![1]!;
    const row = await paymentRow(id);
    expect(row!.status).toBe("paid");
    expect(row!.sequence_type).toBe("recurring");
    expect((await userRow(m.id))!.credits).toBe(50);
    expect(await (await get(`/credits/repeat-order?payment=${id}`, { cookie: m.cookie })).text()).toContain(
      "Payment complete",
    );
    await expectLedgerExplains(m.id);
  });

  it("a failed recurring card payment credits nothing and offers a retry or PayPal", async () => {
    const m = await member();
    await buy(m.cookie, "p0", "creditcard", "paid_fail_recurring");
    const res = await post("/credits/repeat-order", { intent: "repeat", intent_key: clickKey() }, { cookie: m.cookie });
    const id = /payment=([\w-]+)/.exec(res.headers.get("Location")!)![1]!;
    expect((await paymentRow(id))!.status).toBe("failed");
    expect((await userRow(m.id))!.credits).toBe(25);
    const html = await (await get(`/credits/repeat-order?payment=${id}`, { cookie: m.cookie })).text();
    expect(html).toContain("Your card payment failed");
    expect(html).toContain('action="/credits/p0/paypal"');
    expect(html).toContain('value="repeat"');
  });

  it("is premium only, and iDEAL (no mandate) cannot be repeated", async () => {
    const free = await member();
    expect(
      (await post("/credits/repeat-order", { intent: "repeat", intent_key: clickKey() }, { cookie: free.cookie }))
        .status,
    ).toBe(403);
    const m = await member();
    await buy(m.cookie, "p0", "ideal");
    const res = await post("/credits/repeat-order", { intent: "repeat", intent_key: clickKey() }, { cookie: m.cookie });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("did not allow a repeat order");
    expect((await userRow(m.id))!.credits).toBe(25);
  });
});

describe("refunds of unused credits", () => {
  it("refunds what is left of a purchase, pro rata, once; the ledger explains the balance", async () => {
    const m = await member();
    const p = await buy(m.cookie, "p1", "ideal");
    expect(await spendCredits(env.DB, m.id, 20, "photo")).toBe(true);
    const receipt = await (await get(`/transactions/${p.paymentId}`, { cookie: m.cookie })).text();
    expect(receipt).toContain("Receipt");
    expect(receipt).toContain("NL864512378B01");
    expect(receipt).toMatch(/VAT \(21%\)/);
    expect(receipt).toContain("40 unused credits");
    expect(receipt).toContain("13.30");
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect((await userRow(m.id))!.credits).toBe(0);
    const refunds = await env.DB.prepare(
      "SELECT credits, amount_cents, status, provider_ref FROM refunds WHERE payment_id = ?1",
    )
      .bind(p.paymentId)
      .all();
    expect(refunds.results).toHaveLength(1);
    expect(refunds.results[0]).toMatchObject({ credits: 40, amount_cents: 1330, status: "pending" });
    expect(String(refunds.results[0]!.provider_ref)).toMatch(/^re_/);
    await expectLedgerExplains(m.id);
    expect(await (await get(`/transactions/${p.paymentId}`, { cookie: m.cookie })).text()).toContain("in progress");
  });

  it("credits are spent oldest purchase first: a used-up older purchase has nothing to refund", async () => {
    const m = await member();
    const older = await buy(m.cookie, "p0", "ideal"); // 25
    const newer = await buy(m.cookie, "p1", "ideal"); // 60
    expect(await spendCredits(env.DB, m.id, 30, "photo")).toBe(true); // all 25 of p0, 5 of p1
    const a = await post(`/transactions/${older.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    expect(await a.text()).toContain("have been used");
    const html = await (await get(`/transactions/${newer.paymentId}`, { cookie: m.cookie })).text();
    expect(html).toContain("55 unused credits");
    await expectLedgerExplains(m.id);
  });

  it("no refund after refund_days, of an unpaid payment, or of another member's payment", async () => {
    const m = await member();
    const p = await buy(m.cookie, "p0", "ideal");
    const days = (await env.DB.prepare("SELECT refund_days AS d FROM brands WHERE id = 1").first<{ d: number }>())!.d;
    await env.DB.prepare("UPDATE payments SET paid_at = paid_at - ?2 WHERE id = ?1")
      .bind(p.paymentId, (days + 1) * 86400)
      .run();
    const late = await post(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    expect(await late.text()).toContain("refund period");
    expect((await userRow(m.id))!.credits).toBe(25);

    const failed = await buy(m.cookie, "p0", "ideal", "failed");
    await post(`/transactions/${failed.paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    const other = await member();
    expect((await post(`/transactions/${p.paymentId}`, { intent: "refund" }, { cookie: other.cookie })).status).toBe(
      404,
    );
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM refunds WHERE user_id = ?1").bind(m.id).first("n")).toBe(0);
    await expectLedgerExplains(m.id);
  });
});

describe("transactions", () => {
  it("lists every payment with package, credits, amount, method and status", async () => {
    const m = await member();
    await buy(m.cookie, "p1", "ideal");
    await buy(m.cookie, "p0", "paypal", "canceled");
    const html = await (await get("/transactions", { cookie: m.cookie })).text();
    expect(html).toContain("Popular");
    expect(html).toContain("iDEAL");
    expect(html).toContain("PayPal");
    expect(html).toContain("Completed");
    expect(html).toContain("Cancelled");
  });
});
