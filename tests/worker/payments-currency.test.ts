/**
 * A brand's currency (decision 095): a brand selling in SEK offers Swish to members paying from Sweden,
 * shows its prices in kronor in the member's language, charges the provider that amount and
 * currency, and receipts, refunds and repeat orders stay in kronor. Direct debit (SEPA) is EUR only.
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { spendViaWallet } from "./wallet-support";
import { get, post } from "./fixtures";
import { choose, expectLedgerExplains, member, paymentRow, userRow, webhook, clickKey } from "./payments-support";

const SE = "se.localhost"; // brand 4, Hjärtslag, sells in SEK

async function memberOn(host: string, country: string, language = "sv") {
  const brandId = host === SE ? 4 : 1;
  // Signed up a month ago (payments-support): full prices, no welcome or time bonus discount.
  const m = await member({ brandId, country, language });
  return { ...m, cookie: m.cookie.replace("dev_country=NL", `dev_country=${country}`), host };
}

async function methodsOn(host: string, country: string) {
  const m = await memberOn(host, country);
  const html = await (await get("/credits/p1", { host, cookie: m.cookie })).text();
  const list = /data-testid="payment-methods">(.*?)<\/ul>/s.exec(html)?.[1] ?? "";
  return [...list.matchAll(/href="\/credits\/p1\/(\w+)[?#"]/g)].map((x) => x[1]);
}

async function setBrandCurrency(currency: string) {
  await env.DB.prepare("UPDATE brands SET currency = ?1 WHERE id = 4").bind(currency).run();
}
afterEach(() => setBrandCurrency("SEK"));

async function pay(m: Awaited<ReturnType<typeof memberOn>>, pkg: string, method: string) {
  const res = await post(
    `/credits/${pkg}/${method}`,
    { intent: "pay", intent_key: clickKey(), method },
    { host: m.host, cookie: m.cookie },
  );
  expect(res.status).toBe(302);
  const providerId = /\/sandbox\/(tr_\w+)$/.exec(res.headers.get("Location")!)![1]!;
  const row = await env.DB.prepare("SELECT id FROM payments WHERE provider_ref = ?1")
    .bind(providerId)
    .first<{ id: string }>();
  return { providerId, paymentId: row!.id };
}

async function sandboxObject(id: string) {
  const row = await env.DB.prepare("SELECT data FROM sandbox_objects WHERE id = ?1").bind(id).first<{ data: string }>();
  return JSON.parse(row!.data) as {
    amount: { cents: number; currency: string };
    amountRefunded: { cents: number; currency: string } | null;
  };
}

describe("methods per payment country and brand currency", () => {
  it("a SEK brand offers Swish first in Sweden; a EUR brand never offers it; EUR-only methods drop out in kronor", async () => {
    const se = await methodsOn(SE, "SE");
    expect(se[0]).toBe("swish");
    expect(se).toEqual(expect.arrayContaining(["creditcard", "paypal"]));
    // Apple Pay is added by the browser where it can pay with it (components/payments/wallets.ts), never rendered by the server.
    expect(se).not.toContain("applepay");
    expect(se).not.toContain("wire_transfer"); // Mollie's bank transfer takes euros only
    expect(await methodsOn("localhost", "SE")).not.toContain("swish");
    // A member of the SEK brand paying from the Netherlands: cards and PayPal, not iDEAL, not SEPA.
    const nl = await methodsOn(SE, "NL");
    expect(nl).not.toContain("ideal");
    expect(nl).not.toContain("sepa_directdebit");
    expect(nl).not.toContain("paysafecard");
    expect(nl[0]).toBe("creditcard");
  });

  it.each([
    ["NOK", "NO", "vipps", false],
    ["PLN", "PL", "blik", false],
    ["DKK", "DK", "mobilepay", true], // MobilePay also takes euros
    ["CHF", "CH", "twint", false],
  ])(
    "a brand selling in %s offers the local method of %s first (%s)",
    async (currency, country, method, alsoInEuros) => {
      await setBrandCurrency(currency);
      expect((await methodsOn(SE, country))[0]).toBe(method);
      expect((await methodsOn("localhost", country)).includes(method)).toBe(alsoInEuros);
    },
  );

  it("a brand in a currency without package prices sells nothing rather than the wrong price", async () => {
    await setBrandCurrency("USD");
    const m = await memberOn(SE, "SE");
    expect((await get("/credits/p1", { host: SE, cookie: m.cookie })).status).toBe(404);
    const html = await (await get("/credits", { host: SE, cookie: m.cookie })).text();
    const grid = /data-testid="packages">(.*?)<\/ul>/s.exec(html)?.[1] ?? "";
    expect(grid).not.toContain("<li");
    expect(html).not.toContain("€");
  });
});

describe("buying in SEK", () => {
  it("prices in kronor with Swedish formatting on /credits, /pricing and /premium", async () => {
    const m = await memberOn(SE, "SE");
    for (const path of ["/credits", "/premium", "/pricing"]) {
      const html = await (await get(path, { host: SE, cookie: m.cookie })).text();
      expect(html, path).toMatch(/219,00\s*kr/);
      expect(html, path).not.toContain("€");
    }
    // The EUR brand: euros, in its page language (English here).
    const eur = await memberOn("localhost", "NL");
    expect(await (await get("/credits", { cookie: eur.cookie })).text()).toContain("€19.95");
  });

  it("Swish end to end: the provider is asked for SEK 219.00, the webhook credits once, the receipt shows kronor and Swedish VAT", async () => {
    const m = await memberOn(SE, "SE");
    const p = await pay(m, "p1", "swish");
    expect(await paymentRow(p.paymentId)).toMatchObject({
      amount_cents: 21900,
      currency: "SEK",
      method: "swish",
      payment_country: "SE",
      status: "open",
    });
    expect((await sandboxObject(p.providerId)).amount).toEqual({ cents: 21900, currency: "SEK" });
    const back = await choose(p.providerId, "paid");
    expect(back).toBe(`http://${SE}/credits/p1/swish?payment=${p.paymentId}`);
    expect(await userRow(m.id)).toEqual({ credits: 60, paid_user: 1 });
    for (const r of await Promise.all(Array.from({ length: 5 }, () => webhook(p.providerId))))
      expect(r.status).toBe(200);
    expect(await userRow(m.id)).toEqual({ credits: 60, paid_user: 1 });
    await expectLedgerExplains(m.id);

    const done = await (await get(`/credits/p1/swish?payment=${p.paymentId}`, { host: SE, cookie: m.cookie })).text();
    expect(done).toMatch(/219,00\s*kr/);
    const list = await (await get("/transactions", { host: SE, cookie: m.cookie })).text();
    expect(list).toMatch(/219,00\s*kr/);
    const receipt = await (await get(`/transactions/${p.paymentId}`, { host: SE, cookie: m.cookie })).text();
    expect(receipt).toContain('data-testid="receipt"');
    // 25 % Swedish VAT inside 219.00: 43.80 VAT, 175.20 net.
    expect(receipt).toMatch(/43,80\s*kr/);
    expect(receipt).toMatch(/175,20\s*kr/);
  });

  it("a refund of unused credits is paid back in SEK, pro rata", async () => {
    const m = await memberOn(SE, "SE");
    const p = await pay(m, "p1", "swish");
    await choose(p.providerId, "paid");
    expect(await spendViaWallet(m.id, 20, "photo")).toBe(true);
    const res = await post(`/transactions/${p.paymentId}`, { intent: "refund" }, { host: SE, cookie: m.cookie });
    expect(res.status).toBe(200);
    const refund = await env.DB.prepare(
      "SELECT credits, amount_cents, currency, status FROM refunds WHERE payment_id = ?1",
    )
      .bind(p.paymentId)
      .first();
    // 40 of 60 credits unused: 40/60 of 219.00 kr = 146.00 kr.
    expect(refund).toMatchObject({ credits: 40, amount_cents: 14600, currency: "SEK", status: "pending" });
    expect((await sandboxObject(p.providerId)).amountRefunded).toEqual({ cents: 14600, currency: "SEK" });
    expect(await userRow(m.id)).toMatchObject({ credits: 0 });
    await expectLedgerExplains(m.id);
    expect(await (await get(`/transactions/${p.paymentId}`, { host: SE, cookie: m.cookie })).text()).toMatch(
      /146,00\s*kr/,
    );
  });

  it("a repeat order on the card mandate charges the package in kronor again", async () => {
    const m = await memberOn(SE, "SE");
    const p = await pay(m, "p0", "creditcard");
    await choose(p.providerId, "paid");
    const res = await post(
      "/credits/repeat-order",
      { intent: "repeat", intent_key: clickKey() },
      { host: SE, cookie: m.cookie },
    );
    expect(res.status).toBe(302);
    const id = /payment=([\w-]+)/.exec(res.headers.get("Location")!)![1]!;
    expect(await paymentRow(id)).toMatchObject({
      status: "paid",
      sequence_type: "recurring",
      amount_cents: 10900,
      currency: "SEK",
    });
    expect((await userRow(m.id))!.credits).toBe(50);
    await expectLedgerExplains(m.id);
  });

  it("direct debit (SEPA, euros only) is not offered on a SEK brand, even where the country has it", async () => {
    const m = await memberOn(SE, "NL");
    const html = await (await get("/directdebit?package=p1", { host: SE, cookie: m.cookie })).text();
    expect(html).toContain('data-testid="dd-refusal"');
    const res = await post(
      "/credits/p1/sepa_directdebit",
      { intent: "pay", intent_key: clickKey(), method: "sepa_directdebit" },
      { host: SE, cookie: m.cookie },
    );
    expect(res.status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1").bind(m.id).first("n")).toBe(0);
  });

  it("a method of another currency cannot be forced by posting it", async () => {
    const m = await memberOn("localhost", "SE");
    const res = await post(
      "/credits/p1/swish",
      { intent: "pay", intent_key: clickKey(), method: "swish" },
      { cookie: m.cookie },
    );
    expect(res.status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1").bind(m.id).first("n")).toBe(0);
  });
});
