/**
 * Prices and discount codes per brand (decision 227): a package's own price on a brand wins over the
 * shared price in that currency on the pricing page, the shop, the checkout and the webhook's check
 * alike; a package added for chosen brands is sold on those only; a code restricted to brands is
 * "Code not found" elsewhere. Each console change is confirmed, guarded and audited.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditRows, createOperator, operatorCookie, OPERATOR_PASSWORD } from "./admin-support";
import { choose, clickKey, get, member, paymentRow, post, startPayment } from "./payments-support";

/** Amora (localhost, brand 1) and Flirtlokaal (nl.localhost, brand 3) both sell in euros. */
const AMORA = 1;
const FLIRT = { id: 3, host: "nl.localhost" };

async function admin(role: "admin" | "finance" = "admin") {
  const op = await createOperator(role);
  return { ...op, cookie: await operatorCookie(op.id) };
}
/** A console post as its confirmation step sends it (decision 217). */
const confirmed = (path: string, op: { cookie: string }, form: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...form, confirmed: "1", reauth_password: OPERATOR_PASSWORD }))
    for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return post(path, body, { cookie: op.cookie });
};
const price = (html: string) => /€\s?(\d+[.,]\d{2})/.exec(html)?.[1];
const sharedP1 = async () =>
  (await env.DB.prepare("SELECT price_cents FROM package_prices WHERE package_id = 'p1' AND currency = 'EUR'").first<{
    price_cents: number;
  }>())!.price_cents;

describe("a package's own price on a brand", () => {
  it("is what the pricing page, the shop and the checkout show and charge there, and what the webhook accepts; other brands keep the shared price", async () => {
    const op = await admin();
    const shared = await sharedP1();
    const res = await confirmed("/admin/packages", op, {
      intent: "brand_price",
      package: "p1",
      brand: String(AMORA),
      amount: "23.45",
    });
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/admin/packages?done=brand_price"]);
    try {
      const m = await member();
      const pricing = await (await get("/pricing", { cookie: m.cookie })).text();
      expect(pricing).toContain("23.45");
      const shop = await (await get("/credits/p1/ideal", { cookie: m.cookie })).text();
      expect(shop).toContain("23.45");
      // The checkout charges it, and the provider's payment of that amount completes it (the webhook's check).
      const { providerId, paymentId } = await startPayment(m.cookie, "p1", "ideal");
      expect(await paymentRow(paymentId)).toMatchObject({ amount_cents: 2345, brand_id: AMORA });
      await choose(providerId, "paid");
      expect(await paymentRow(paymentId)).toMatchObject({ status: "paid", amount_cents: 2345 });

      // Flirtlokaal sells p1 at the shared price still.
      const nl = await member({ brandId: FLIRT.id });
      const nlShop = await (await get("/credits/p1/ideal", { host: FLIRT.host, cookie: nl.cookie })).text();
      expect(nlShop).not.toContain("23,45");
      expect(nlShop).not.toContain("23.45");
      const nlPay = await post(
        "/credits/p1/ideal",
        { intent: "pay", intent_key: clickKey(), method: "ideal" },
        { host: FLIRT.host, cookie: nl.cookie },
      );
      expect(nlPay.status).toBe(302);
      const nlRow = await env.DB.prepare("SELECT amount_cents FROM payments WHERE user_id = ?1").bind(nl.id).first();
      expect(nlRow).toEqual({ amount_cents: shared });
    } finally {
      const back = await confirmed("/admin/packages", op, {
        intent: "brand_remove",
        package: "p1",
        brand: String(AMORA),
      });
      expect(back.status).toBe(302);
    }
    // Back to the shared price on Amora.
    const m2 = await member();
    expect(price(await (await get("/credits/p1/ideal", { cookie: m2.cookie })).text())).toBe((shared / 100).toFixed(2));
    const audit = (await auditRows("p1")).filter(
      (r) => r.action.startsWith("package.brand_price") && r.operatorId === op.id,
    );
    expect(audit.map((r) => r.action)).toEqual(["package.brand_price_add", "package.brand_price_remove"]);
    expect(audit[0]!.after).toEqual({ brandId: AMORA, currency: "EUR", priceCents: 2345 });
  });

  it("is confirmed first; a finance operator cannot set it; a bad amount or brand changes nothing", async () => {
    const op = await admin();
    const first = await post(
      "/admin/packages",
      { intent: "brand_price", package: "p2", brand: String(AMORA), amount: "30.00" },
      { cookie: op.cookie },
    );
    expect(await first.text()).toContain("Sell p2 on Amora at 30.00 in its currency");
    const fin = await admin("finance");
    expect(
      (await confirmed("/admin/packages", fin, { intent: "brand_price", package: "p2", brand: "1", amount: "30.00" }))
        .status,
    ).toBe(403);
    for (const bad of [{ amount: "0.10" }, { amount: "abc" }, { brand: "999" }, { package: "nope" }]) {
      const res = await confirmed("/admin/packages", op, {
        intent: "brand_price",
        package: "p2",
        brand: "1",
        amount: "30.00",
        ...bad,
      });
      expect(res.status, JSON.stringify(bad)).toBe(200);
    }
    const rows = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM package_brand_prices WHERE package_id IN ('p2', 'nope')",
    ).first();
    expect(rows).toEqual({ n: 0 });
  });
});

describe("a package added in the console", () => {
  it("for chosen brands is sold there only, at its price; audited; a taken id or a brand in another currency is refused", async () => {
    const op = await admin();
    const id = `x${crypto.randomUUID().slice(0, 6)}`;
    const res = await confirmed("/admin/packages", op, {
      intent: "add_package",
      package: id,
      tier: "p1",
      credits: "75",
      currency: "EUR",
      amount: "21.00",
      brands: [String(AMORA)],
    });
    expect([res.status, res.headers.get("Location")]).toEqual([302, "/admin/packages?done=add_package"]);
    const m = await member();
    const shop = await (await get(`/credits/${id}/ideal`, { cookie: m.cookie })).text();
    expect(shop).toContain("21.00");
    const { paymentId } = await startPayment(m.cookie, id, "ideal");
    expect(await paymentRow(paymentId)).toMatchObject({ amount_cents: 2100, credits: 75 });
    const nl = await member({ brandId: FLIRT.id });
    expect((await get(`/credits/${id}/ideal`, { host: FLIRT.host, cookie: nl.cookie })).status).toBe(404);
    const audit = (await auditRows(id)).filter((r) => r.action === "package.add");
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ credits: 75, priceCents: 2100, brandIds: [AMORA] });

    // The same id again, or a SEK brand (4) at a euro price: nothing added.
    const again = await confirmed("/admin/packages", op, {
      intent: "add_package",
      package: id,
      tier: "p2",
      credits: "10",
      currency: "EUR",
      amount: "5.00",
      brands: [String(FLIRT.id)],
    });
    expect(await again.text()).toContain("Not added");
    const sek = await confirmed("/admin/packages", op, {
      intent: "add_package",
      package: `${id}s`,
      tier: "p2",
      credits: "10",
      currency: "EUR",
      amount: "5.00",
      brands: ["4"],
    });
    expect(await sek.text()).toContain("Not added");
    const stored = await env.DB.prepare(
      "SELECT (SELECT COUNT(*) FROM packages WHERE id IN (?1, ?1 || 's')) AS k, (SELECT COUNT(*) FROM package_brand_prices WHERE package_id IN (?1, ?1 || 's')) AS b, (SELECT COUNT(*) FROM package_prices WHERE package_id IN (?1, ?1 || 's')) AS s",
    )
      .bind(id)
      .first();
    expect(stored).toEqual({ k: 1, b: 1, s: 0 });
    // Its only price can go (other packages sell on Amora): then it is sold nowhere.
    const gone = await confirmed("/admin/packages", op, { intent: "brand_remove", package: id, brand: String(AMORA) });
    expect(gone.status).toBe(302);
    expect((await get(`/credits/${id}/ideal`, { cookie: m.cookie })).status).toBe(404);
  });
});

describe("a discount code for chosen brands", () => {
  it("applies on those brands; elsewhere it is the code form's translated 'not found'; its brands can be changed, audited", async () => {
    const op = await admin("finance");
    const code = `BR${crypto.randomUUID().slice(0, 6).toUpperCase()}`;
    const created = await post(
      "/admin/codes",
      new URLSearchParams([
        ["intent", "create"],
        ["code", code],
        ["percentage", "10"],
        ["currency", "EUR"],
        ["limit", "once"],
        ["minimum", ""],
        ["expires", ""],
        ["countries", ""],
        ["maxUses", ""],
        ["brands", String(AMORA)],
      ]),
      { cookie: op.cookie },
    );
    expect(created.status).toBe(302);
    const m = await member();
    const onAmora = await (await get(`/credits/p1/ideal?code=${code}`, { cookie: m.cookie })).text();
    expect(onAmora).toContain("price-was");
    const nl = await member({ brandId: FLIRT.id });
    const onFlirt = await (
      await get(`/credits/p1/ideal?code=${code}`, { host: FLIRT.host, cookie: `${nl.cookie}; lng=nl` })
    ).text();
    expect(onFlirt).toContain("Code niet gevonden");
    expect(onFlirt).not.toContain("price-was");
    // Paying with it there charges the full price.
    const pay = await post(
      "/credits/p1/ideal",
      { intent: "pay", intent_key: clickKey(), method: "ideal", code },
      { host: FLIRT.host, cookie: nl.cookie },
    );
    expect(pay.status).not.toBe(302);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1 AND discount_code_id IS NOT NULL")
        .bind(nl.id)
        .first(),
    ).toEqual({ n: 0 });

    // Every brand now (none ticked): valid on Flirtlokaal too.
    const all = await post(
      "/admin/codes",
      new URLSearchParams([
        ["intent", "brands"],
        ["code", code],
      ]),
      {
        cookie: op.cookie,
      },
    );
    expect(all.status).toBe(302);
    const now = await (await get(`/credits/p1/ideal?code=${code}`, { host: FLIRT.host, cookie: nl.cookie })).text();
    expect(now).toContain("price-was");
    const audit = (await auditRows(code)).map((r) => [r.action, r.after]);
    expect(audit).toEqual([
      ["code.create", expect.objectContaining({ brandIds: "1" })],
      ["code.brands", { brandIds: null }],
    ]);
  });
});
