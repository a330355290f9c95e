import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { checkCode, claimGuardSql, redemptionStatement, type DiscountMember } from "../../app/models/discounts.server";
import { applyProviderPayment } from "../../app/models/payments/webhook.server";
import { retentionDiscountCode } from "../../app/models/accounts/deletion.server";
import { getBrandByHost } from "../../app/models/brand.server";
import { createMember, get, sessionCookie } from "./fixtures";

const HOUR = 3600;
const nowS = () => Math.floor(Date.now() / 1000);

async function memberSince(secondsAgo: number, o: { paidUser?: boolean; country?: string } = {}) {
  const m = await createMember({ paidUser: o.paidUser, country: o.country });
  const createdAt = nowS() - secondsAgo;
  await env.DB.prepare("UPDATE users SET created_at = ?2 WHERE id = ?1").bind(m.id, createdAt).run();
  return { ...m, member: { id: m.id, paidUser: !!o.paidUser, createdAt } satisfies DiscountMember };
}

let codeSeq = 0;
async function code(
  o: {
    percentage?: string;
    minimum?: number;
    country?: string;
    userId?: string;
    expires?: number;
    status?: string;
    methods?: string[];
    once?: boolean;
  } = {},
) {
  codeSeq += 1;
  const c = `TEST${Date.now().toString(36).toUpperCase()}${codeSeq}`;
  await env.DB.prepare(
    "INSERT INTO discount_codes (code, value_percentage, minimum_order_value, country, user_id, expires, status, once_per_user, paymentmethods) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
  )
    .bind(
      c,
      o.percentage ?? "20",
      o.minimum ?? null,
      o.country ?? null,
      o.userId ?? null,
      o.expires ?? null,
      o.status ?? "active",
      o.once === false ? 0 : 1,
      o.methods ? JSON.stringify(o.methods) : null,
    )
    .run();
  return c;
}

const codeId = async (c: string) =>
  (await env.DB.prepare("SELECT id FROM discount_codes WHERE code = ?1").bind(c).first<{ id: number }>())!.id;

/** A payment as the checkout inserts it: carrying the code only if the claim guard lets it. */
function insertPayment(userId: string, codeIdValue: number, id = `pay-${crypto.randomUUID()}`) {
  return env.DB.prepare(
    `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, discount_code_id)
     SELECT ?1, ?2, 1, 'p0', 25, 746, 'EUR', 'ideal', 'sandbox', 'open', ?3 WHERE ${claimGuardSql("?3", "?2")}`,
  ).bind(id, userId, codeIdValue);
}

/** The completion batch: the guarded status change, then the redemption. */
function complete(paymentId: string) {
  return env.DB.batch([
    env.DB.prepare("UPDATE payments SET status = 'paid' WHERE id = ?1 AND status IN ('open', 'pending')").bind(
      paymentId,
    ),
    redemptionStatement(env.DB, paymentId),
  ]);
}

describe("GET /api/discountcode.php", () => {
  it("answers a visitor authentication_required (403)", async () => {
    const res = await get("/api/discountcode.php");
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "authentication_required" });
  });

  it("gives a member minutes old the welcome offer with the spec's fields, ending with the brand's window; welcome=true the same", async () => {
    const m = await memberSince(60);
    const cookie = await sessionCookie(m.id);
    const res = await get("/api/discountcode.php", { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      "code",
      "country",
      "currency",
      "expired",
      "expires",
      "minimum_order_value",
      "paymentmethods",
      "status",
      "user_id",
      "validity",
      "value_percentage",
    ]);
    expect(body).toMatchObject({
      code: "WELCOME25",
      value_percentage: "25",
      user_id: m.id,
      status: "active",
      validity: "once_per_user",
      expired: false,
      currency: "EUR",
    });
    expect(Date.parse(body.expires as string) / 1000).toBe(m.member.createdAt + 7 * 24 * HOUR);
    const welcome = (await (await get("/api/discountcode.php?welcome=true", { cookie })).json()) as Record<
      string,
      unknown
    >;
    expect(welcome).toEqual(body);
  });

  it("gives the same welcome code after 4 hours, nothing after the brand's window or to a paid user", async () => {
    const later = await memberSince(5 * HOUR);
    expect(await (await get("/api/discountcode.php", { cookie: await sessionCookie(later.id) })).json()).toMatchObject({
      code: "WELCOME25",
    });
    const old = await memberSince(8 * 24 * HOUR);
    expect((await get("/api/discountcode.php", { cookie: await sessionCookie(old.id) })).status).toBe(404);
    const paid = await memberSince(60, { paidUser: true });
    expect((await get("/api/discountcode.php", { cookie: await sessionCookie(paid.id) })).status).toBe(404);
  });
});

describe("one welcome offer with one real end (decision 202)", () => {
  const page = async (secondsAgo: number) => {
    const m = await memberSince(secondsAgo);
    const cookie = await sessionCookie(m.id);
    return {
      m,
      html: await (await get("/members", { cookie })).text(),
      credits: await (await get("/credits", { cookie })).text(),
    };
  };

  it("the banner names the offer and its end as a date and time, the end the checkout's code has", async () => {
    for (const age of [60, 5 * HOUR, 6 * 24 * HOUR]) {
      const { m, html, credits } = await page(age);
      const end = new Date((m.member.createdAt + 7 * 24 * HOUR) * 1000).toISOString();
      expect(html, `${age}`).toContain("Welcome offer: 25% off your first credits");
      expect(html, `${age}`).toContain(`dateTime="${end}"`);
      expect(html).not.toMatch(/Act fast|Ends in|TIMEBONUS/i);
      expect(credits, `${age}`).toContain("25% discount with code WELCOME25");
      expect(credits).not.toContain("TIMEBONUS25");
    }
  });

  it("when the end passes the offer is over: no banner, full prices, the code refused", async () => {
    const { m, html, credits } = await page(7 * 24 * HOUR + 1);
    expect(html).not.toContain("Welcome offer");
    expect(credits).not.toContain("price-was");
    for (const c of ["WELCOME25", "TIMEBONUS25"])
      expect(await (await get(`/credits/p0/ideal?code=${c}`, { cookie: await sessionCookie(m.id) })).text()).toContain(
        "This code has expired.",
      );
  });
});

describe("checking a typed code", () => {
  const brand = () => getBrandByHost(env, "localhost");
  const check = async (
    member: DiscountMember,
    c: string,
    o: { price?: number; country?: string; method?: string; pkg?: string; currency?: string } = {},
  ) =>
    checkCode(env.DB, {
      member,
      brand: await brand(),
      code: c,
      packageId: o.pkg ?? "p0",
      priceCents: o.price ?? 995,
      currency: o.currency ?? "EUR",
      country: o.country ?? "NL",
      method: o.method,
    });

  it("applies a valid code, case and spaces aside, in integer cents", async () => {
    const { member } = await memberSince(10 * 24 * HOUR);
    const c = await code({ percentage: "25" });
    expect(await check(member, `  ${c.toLowerCase()} `)).toEqual({
      ok: true,
      code: { id: await codeId(c), code: c, percentage: "25", originalCents: 995, discountCents: 249, finalCents: 746 },
    });
  });

  it("Code not found: unknown, garbage, disabled, or another member's personal code", async () => {
    const { member } = await memberSince(10 * 24 * HOUR);
    const other = await createMember();
    for (const c of [
      "NOPE-NOT-HERE",
      "",
      "x".repeat(500),
      "DROP TABLE;",
      "\u202eEDOC",
      await code({ status: "disabled" }),
      await code({ userId: other.id }),
    ]) {
      expect(await check(member, c)).toEqual({ ok: false, error: "not_found" });
    }
  });

  it("Code already used: after a paid payment with it, or while an open payment holds it", async () => {
    const { id, member } = await memberSince(10 * 24 * HOUR);
    const c = await code();
    const open = `pay-${crypto.randomUUID()}`;
    await insertPayment(id, await codeId(c), open).run();
    expect(await check(member, c)).toEqual({ ok: false, error: "used" });
    await complete(open);
    expect(await check(member, c)).toEqual({ ok: false, error: "used" });
    // Another member may still use it.
    expect((await check((await memberSince(10 * 24 * HOUR)).member, c)).ok).toBe(true);
  });

  it("expired: past its date, the retired TIMEBONUS25 always, WELCOME25 after the brand's window or for a paying member", async () => {
    const { member } = await memberSince(5 * HOUR);
    expect(await check(member, await code({ expires: nowS() - 1 }))).toEqual({ ok: false, error: "expired" });
    expect(await check(member, "TIMEBONUS25")).toEqual({ ok: false, error: "expired" });
    expect((await check(member, "WELCOME25")).ok).toBe(true);
    expect(await check((await memberSince(8 * 24 * HOUR)).member, "WELCOME25")).toEqual({
      ok: false,
      error: "expired",
    });
    expect(await check((await memberSince(60, { paidUser: true })).member, "TIMEBONUS25")).toEqual({
      ok: false,
      error: "expired",
    });
    // One offer has one code (decision 202): the former 4-hour code is over even minutes after sign-up.
    expect(await check((await memberSince(60)).member, "TIMEBONUS25")).toEqual({ ok: false, error: "expired" });
  });

  it("wrong country, below the minimum order value, a payment method the code does not allow", async () => {
    const { member } = await memberSince(10 * 24 * HOUR);
    const de = await code({ country: "DE" });
    expect(await check(member, de, { country: "NL" })).toEqual({ ok: false, error: "country" });
    expect((await check(member, de, { country: "DE" })).ok).toBe(true);
    const min = await code({ minimum: 1995 });
    expect(await check(member, min, { price: 995 })).toEqual({
      ok: false,
      error: "minimum",
      minimum: { cents: 1995, currency: "EUR" },
    });
    expect((await check(member, min, { price: 1995 })).ok).toBe(true);
    const ideal = await code({ methods: ["ideal", "bancontact"] });
    expect(await check(member, ideal, { method: "paypal" })).toEqual({ ok: false, error: "method" });
    expect((await check(member, ideal, { method: "ideal" })).ok).toBe(true);
    // Before a method is chosen the code shows; the checkout checks again with the method.
    expect((await check(member, ideal)).ok).toBe(true);
  });

  it("a minimum order is judged in the code's currency: an EUR €50 minimum is not met by 109 SEK (decision 115)", async () => {
    const { member } = await memberSince(10 * 24 * HOUR);
    const min = await code({ minimum: 5000 });
    // p0 costs 109 kr (10,900 öre) on a SEK brand, which is €9.95 in the price table: below €50.
    expect(await check(member, min, { pkg: "p0", price: 10_900, currency: "SEK", country: "SE" })).toEqual({
      ok: false,
      error: "minimum",
      minimum: { cents: 5000, currency: "EUR" },
    });
    expect(await check(member, min, { pkg: "p1", price: 21_900, currency: "SEK", country: "SE" })).toMatchObject({
      ok: false,
      error: "minimum",
    });
    // p3 costs 899 kr there and €79.95 in euros: the code applies, its percentage to the kronor price.
    expect(await check(member, min, { pkg: "p3", price: 89_900, currency: "SEK", country: "SE" })).toMatchObject({
      ok: true,
      code: { originalCents: 89_900, finalCents: 71_920 },
    });
    // A package without a price in the code's currency cannot be shown to reach the minimum.
    await env.DB.prepare(
      "INSERT INTO packages (id, tier, credits, price_cents, currency) VALUES ('p-sek-only', 'p3', 999, 99900, 'SEK') ON CONFLICT DO NOTHING",
    ).run();
    expect(
      await check(member, min, { pkg: "p-sek-only", price: 999_900, currency: "SEK", country: "SE" }),
    ).toMatchObject({ ok: false, error: "minimum" });
  });

  it("the checkout of the SEK brand says the minimum in the code's currency", async () => {
    const m = await createMember({ brandId: 4, country: "SE", language: "en" });
    await env.DB.prepare("UPDATE users SET created_at = unixepoch() - 30 * 86400 WHERE id = ?1").bind(m.id).run();
    const min = await code({ minimum: 5000 });
    const cookie = `${await sessionCookie(m.id)}; dev_country=SE; lng=en`;
    const low = await (await get(`/credits/p0/creditcard?code=${min}`, { host: "se.localhost", cookie })).text();
    expect(low).toContain("This code is valid for orders of €50.00 or more.");
    expect(low).not.toContain("price-was");
    const high = await (await get(`/credits/p3/creditcard?code=${min}`, { host: "se.localhost", cookie })).text();
    expect(high).toContain("price-was");
  });

  it("the delete-account retention code STAY-… is redeemable by its member, once", async () => {
    const { id, member } = await memberSince(10 * 24 * HOUR);
    const stay = (await retentionDiscountCode(env.DB, await brand(), id))!;
    expect(stay.code).toMatch(/^STAY-/);
    expect(await check(member, stay.code)).toMatchObject({ ok: true, code: { percentage: "50", finalCents: 497 } });
    expect(await check((await memberSince(10 * 24 * HOUR)).member, stay.code)).toEqual({
      ok: false,
      error: "not_found",
    });
  });
});

describe("once per member under concurrency", () => {
  it("20 checkouts at once with the same code: exactly one payment carries it", async () => {
    const { id } = await memberSince(60);
    const tb = await codeId("TIMEBONUS25");
    const results = await Promise.all(Array.from({ length: 20 }, () => insertPayment(id, tb).run()));
    expect(results.filter((r) => r.meta.changes === 1)).toHaveLength(1);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1 AND discount_code_id = ?2")
      .bind(id, tb)
      .first<{ n: number }>();
    expect(n!.n).toBe(1);
  });

  it("two payments with the code completing at the same time leave one redemption; a code without once-per-member needs none", async () => {
    const { id } = await memberSince(60);
    const c = await codeId(await code());
    // Two payments that both carry the code (as if created before the guard existed).
    const [a, b] = [`pay-${crypto.randomUUID()}`, `pay-${crypto.randomUUID()}`];
    for (const p of [a, b]) {
      await env.DB.prepare(
        "INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, discount_code_id) VALUES (?1, ?2, 1, 'p0', 25, 796, 'EUR', 'ideal', 'sandbox', 'open', ?3)",
      )
        .bind(p, id, c)
        .run();
    }
    await Promise.all([complete(a!), complete(b!), complete(a!), complete(b!)]);
    const rows = await env.DB.prepare("SELECT payment_id FROM discount_redemptions WHERE user_id = ?1 AND code_id = ?2")
      .bind(id, c)
      .all();
    expect(rows.results).toHaveLength(1);

    const unlimited = await codeId(await code({ once: false }));
    const p = `pay-${crypto.randomUUID()}`;
    expect((await insertPayment(id, unlimited, p).run()).meta.changes).toBe(1);
    expect((await insertPayment(id, unlimited).run()).meta.changes).toBe(1);
    await complete(p);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM discount_redemptions WHERE code_id = ?1")
        .bind(unlimited)
        .first("n"),
    ).toBe(0);
  });
});

describe("one built-in discount per member, when the payment completes (decision 115)", () => {
  it("the welcome discount and the time bonus held at once (opened before the rule): the second completion is credited in full, not redeemed, and logged", async () => {
    const { id } = await memberSince(60);
    const [tb, welcome] = [await codeId("TIMEBONUS25"), await codeId("WELCOME25")];
    // The checkout refuses the second built-in code while the first is held…
    expect((await insertPayment(id, welcome).run()).meta.changes).toBe(1);
    expect((await insertPayment(id, tb).run()).meta.changes).toBe(0);
    // …but two payments already open with one each (opened before the rule) both complete.
    const [a, b] = [`pay-${crypto.randomUUID()}`, `pay-${crypto.randomUUID()}`];
    await env.DB.prepare(
      "INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, original_amount_cents, currency, method, provider, provider_ref, status, discount_code_id) VALUES (?1, ?2, 1, 'p0', 25, 746, 995, 'EUR', 'ideal', 'sandbox', ?4, 'open', ?3)",
    )
      .bind(a, id, tb, `tr_${a.slice(4, 20)}`)
      .run();
    await env.DB.prepare(
      "INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, original_amount_cents, currency, method, provider, provider_ref, status, discount_code_id) VALUES (?1, ?2, 1, 'p1', 60, 1496, 1995, 'EUR', 'ideal', 'sandbox', ?4, 'open', ?3)",
    )
      .bind(b, id, welcome, `tr_${b.slice(4, 20)}`)
      .run();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      for (const [p, cents] of [
        [a, 746],
        [b, 1496],
      ] as const) {
        const paid = await applyProviderPayment({ env } as never, {
          id: `tr_${p.slice(4, 20)}`,
          status: "paid",
          amount: { cents, currency: "EUR" },
          method: "ideal",
          description: "",
          sequenceType: "oneoff",
          metadata: { paymentId: p },
          checkoutUrl: null,
          customerId: null,
          mandateId: null,
          amountRefunded: null,
          amountChargedBack: null,
          refunds: [],
          failureReason: null,
          bankReason: null,
          chargebacks: [],
          createdAt: new Date().toISOString(),
          paidAt: new Date().toISOString(),
        });
        expect(paid!.status).toBe("paid");
      }
      const rows = await env.DB.prepare(
        "SELECT r.payment_id, c.code FROM discount_redemptions r JOIN discount_codes c ON c.id = r.code_id WHERE r.user_id = ?1",
      )
        .bind(id)
        .all();
      expect(rows.results).toEqual([{ payment_id: a, code: "TIMEBONUS25" }]);
      // Both credited in full: the member paid for both.
      expect(await env.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(id).first("credits")).toBe(85);
      const logged = warn.mock.calls
        .map((c) => JSON.parse(String(c[0])) as Record<string, unknown>)
        .filter((l) => l.event === "payments.discount_not_allowed");
      expect(logged).toEqual([expect.objectContaining({ memberId: id, paymentId: b, code: "WELCOME25" })]);
    } finally {
      warn.mockRestore();
    }
  });
});
