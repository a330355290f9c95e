/** Buying with a discount through the sandbox, as a browser would: prices shown, amount charged, code used up. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
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
  clickKey,
} from "./payments-support";
import { retentionDiscountCode } from "../../app/models/accounts/deletion.server";
import { getBrandByHost } from "../../app/models/brand.server";

const redemptions = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT c.code, r.payment_id FROM discount_redemptions r JOIN discount_codes c ON c.id = r.code_id WHERE r.user_id = ?1",
    )
      .bind(userId)
      .all<{ code: string; payment_id: string }>()
  ).results;

describe("checkout with the welcome offer", () => {
  it("a member minutes old sees 25% off struck through, pays the discounted amount, and WELCOME25 is then used up", async () => {
    const m = await member({}, 0);
    for (const path of ["/credits", "/credits/p1", "/credits/p1/ideal", "/premium"]) {
      const html = await (await get(path, { cookie: m.cookie })).text();
      expect(html, path).toMatch(/<s class="price-was"[^>]*>€19\.95<\/s>/);
      expect(html, path).toContain("€14.96"); // 1995 − 498.75 rounded half up = 499 off
    }
    const { providerId, paymentId } = await startPayment(m.cookie, "p1", "ideal");
    const open = await paymentRow(paymentId);
    expect(open).toMatchObject({ amount_cents: 1496, original_amount_cents: 1995, status: "open" });
    expect(open!.discount_code_id).toBe(
      await env.DB.prepare("SELECT id FROM discount_codes WHERE code = 'WELCOME25'").first("id"),
    );
    // While it is open, the code is held: a second checkout gets no second discount.
    const second = await post(
      "/credits/p0/ideal",
      { intent: "pay", intent_key: clickKey(), method: "ideal", code: "WELCOME25" },
      { cookie: m.cookie },
    );
    expect(second.status).toBe(200);
    expect(await second.text()).toContain("Code already used");

    await choose(providerId, "paid");
    await webhook(providerId);
    expect(await paymentRow(paymentId)).toMatchObject({ status: "paid", amount_cents: 1496 });
    expect(await userRow(m.id)).toMatchObject({ credits: 60, paid_user: 1 });
    expect(await redemptions(m.id)).toEqual([{ code: "WELCOME25", payment_id: paymentId }]);
    await expectLedgerExplains(m.id);
    // Paid now: no welcome offer, no discounted prices; typing the code again is refused.
    const after = await (await get("/credits/p1/ideal?code=welcome25", { cookie: m.cookie })).text();
    expect(after).not.toContain("price-was");
    expect(after).toMatch(/Code already used|This code has expired/);
  });

  it("every code error shows translated on the checkout, and changes nothing", async () => {
    const m = await member({}, 30);
    const cases: [string, string, RegExp][] = [
      ["en", "NOPE-42", /Code not found/],
      ["de", "NOPE-42", /Code nicht gefunden/],
      ["en", "TIMEBONUS25", /This code has expired\./],
      ["nl", "WELCOME25", /Deze code is verlopen\./],
    ];
    for (const [lng, code, text] of cases) {
      const html = await (await get(`/credits/p1/ideal?code=${code}`, { cookie: `${m.cookie}; lng=${lng}` })).text();
      expect(html, `${lng} ${code}`).toMatch(text);
    }
    const before = await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1").bind(m.id).first("n");
    const res = await post(
      "/credits/p1/ideal",
      { intent: "pay", intent_key: clickKey(), method: "ideal", code: "NOPE-42" },
      { cookie: m.cookie },
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Code not found");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1").bind(m.id).first("n")).toBe(
      before,
    );
  });

  it("the delete-account code STAY-… buys with its percentage off; the amount comes from the server, not the form", async () => {
    const m = await member({}, 30);
    const stay = (await retentionDiscountCode(env.DB, await getBrandByHost(env, "localhost"), m.id))!;
    const html = await (await get(`/credits/p0/ideal?code=${stay.code.toLowerCase()}`, { cookie: m.cookie })).text();
    expect(html).toContain(`Code ${stay.code} applied: 50% off.`);
    expect(html).toContain("€4.97"); // 995 − 497.5 rounded half up
    const { providerId, paymentId } = await startPayment(m.cookie, "p0", "ideal", { code: stay.code, amount: "1" });
    expect(await paymentRow(paymentId)).toMatchObject({ amount_cents: 497, original_amount_cents: 995 });
    await choose(providerId, "paid");
    await webhook(providerId);
    expect((await redemptions(m.id)).map((r) => r.code)).toEqual([stay.code]);
  });

  it("20 checkouts at once with the welcome offer: one payment carries it", async () => {
    const m = await member({}, 0);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post("/credits/p0/ideal", { intent: "pay", intent_key: clickKey(), method: "ideal" }, { cookie: m.cookie }),
      ),
    );
    const rows = await env.DB.prepare("SELECT amount_cents, discount_code_id FROM payments WHERE user_id = ?1")
      .bind(m.id)
      .all<{ amount_cents: number; discount_code_id: number | null }>();
    expect(rows.results.filter((r) => r.discount_code_id !== null)).toHaveLength(1);
    expect(rows.results.filter((r) => r.discount_code_id !== null)[0]!.amount_cents).toBe(746);
    // The others were refused ("Code already used") or, once the code showed as held, priced in full.
    expect(rows.results.filter((r) => r.discount_code_id === null).every((r) => r.amount_cents === 995)).toBe(true);
    expect(results.every((r) => r.status === 302 || r.status === 200)).toBe(true);
  });
});

describe("the try-out package of the delete-account offer", () => {
  it("is a real small package: the delete flow links to it, it is not listed with the tiers, and it is bought once", async () => {
    const m = await member({}, 30);
    expect(await (await get("/settings/delete", { cookie: m.cookie })).text()).toContain('href="/credits/tryout"');
    for (const path of ["/credits", "/premium", "/directdebit", "/directdebit?package=tryout"])
      expect(await (await get(path, { cookie: m.cookie })).text(), path).not.toContain("Try-out");
    const page = await (await get("/credits/tryout/ideal", { cookie: m.cookie })).text();
    expect(page).toContain("You chose the Try-out package for €2.95");
    expect(page).toContain("10 credits");
    expect(page).toContain("€2.95");
    expect(page).not.toContain("SEPA direct debit"); // never on a mandate (nor repeated as a repeat order)

    const { providerId, paymentId } = await startPayment(m.cookie, "tryout", "ideal");
    expect(await paymentRow(paymentId)).toMatchObject({ package_id: "tryout", amount_cents: 295, credits: 10 });
    // While it is open, a second one is refused; nothing else is stored.
    const again = await post(
      "/credits/tryout/ideal",
      { intent: "pay", intent_key: clickKey(), method: "ideal" },
      { cookie: m.cookie },
    );
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("You have already used your try-out package");
    await choose(providerId, "paid");
    await webhook(providerId);
    expect(await userRow(m.id)).toMatchObject({ credits: 10, paid_user: 1 });
    await expectLedgerExplains(m.id);
    const after = await (await get("/credits/tryout/ideal", { cookie: m.cookie })).text();
    expect(after).toContain("You have already used your try-out package");
    expect(after).not.toContain('name="intent" value="pay"');
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1").bind(m.id).first("n")).toBe(1);
  });

  it("10 checkouts at once: one payment", async () => {
    const m = await member({}, 30);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        post("/credits/tryout/ideal", { intent: "pay", intent_key: clickKey(), method: "ideal" }, { cookie: m.cookie }),
      ),
    );
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1 AND package_id = 'tryout'")
        .bind(m.id)
        .first("n"),
    ).toBe(1);
  });
});

describe("one built-in discount per member (decision 115)", () => {
  it("WELCOME25 typed in one checkout, another checkout after it: paying both gives one purchase at 25% off and one redemption", async () => {
    const m = await member({}, 0);
    // Before any purchase both built-in discounts are running; the member types the welcome code in one checkout…
    const welcome = await startPayment(m.cookie, "p1", "ideal", { code: "WELCOME25" });
    expect(await paymentRow(welcome.paymentId)).toMatchObject({ amount_cents: 1496, original_amount_cents: 1995 });
    // …and opens another: the offer is already held, and the retired TIMEBONUS25 counts as the same offer.
    const page = await (await get("/credits/p0/ideal", { cookie: m.cookie })).text();
    expect(page).not.toContain("price-was");
    const typed = await post(
      "/credits/p0/ideal",
      { intent: "pay", intent_key: clickKey(), method: "ideal", code: "TIMEBONUS25" },
      { cookie: m.cookie },
    );
    expect(await typed.text()).toContain("Code already used");
    const bonus = await startPayment(m.cookie, "p0", "ideal");
    expect(await paymentRow(bonus.paymentId)).toMatchObject({
      amount_cents: 995,
      original_amount_cents: null,
      discount_code_id: null,
    });

    for (const p of [welcome, bonus]) {
      await choose(p.providerId, "paid");
      await webhook(p.providerId);
    }
    const discounted = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1 AND status = 'paid' AND original_amount_cents IS NOT NULL",
    )
      .bind(m.id)
      .first("n");
    expect(discounted).toBe(1);
    expect(await redemptions(m.id)).toEqual([{ code: "WELCOME25", payment_id: welcome.paymentId }]);
    expect(await userRow(m.id)).toMatchObject({ credits: 85, paid_user: 1 });
    await expectLedgerExplains(m.id);
  });
});
