/**
 * The console's dashboard (decision 177): figures read from the payments, refunds and
 * members themselves, per brand and period, on a controlled clock; a seeded month's revenue equals
 * the sum of its completed payments minus refunds (and chargebacks).
 */
import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DAY_S, dashboard } from "../../app/models/admin/dashboard.server";
import * as schema from "../../db/schema";
import { seedConsoleData } from "../bench/seed-console";
import { db, get } from "./fixtures";
import { createOperator, operatorCookie } from "./admin-support";

/** Noon UTC on a fixed day: "today" began 12 hours ago. */
const NOW = Date.UTC(2026, 5, 15, 12) / 1000;
const TODAY = Math.floor(NOW / DAY_S) * DAY_S;

let brandSeq = 0;
/** A brand of its own, so other tests' payments do not count. */
async function newBrand(currency = "EUR") {
  const [base] = await db().select().from(schema.brands).where(eq(schema.brands.id, 1));
  const id = 900 + ++brandSeq + Math.floor(Math.random() * 50) * 10;
  await db()
    .insert(schema.brands)
    .values({
      ...base!,
      id,
      name: `Dash ${id}`,
      hostname: `dash${id}.test`,
      domain: `dash${id}.test`,
      currency,
      isDefault: false,
    });
  return id;
}

async function member(brandId: number, id: string, createdAt: number, status: "confirmed" | "not_confirmed") {
  await env.DB.prepare(
    "INSERT INTO users (id, brand_id, email, password_hash, status, created_at) VALUES (?1, ?2, ?3, 'x', ?4, ?5)",
  )
    .bind(id, brandId, `${id}@dash.example`, status, createdAt)
    .run();
}

async function payment(
  brandId: number,
  userId: string,
  id: string,
  o: {
    cents: number;
    currency?: string;
    status: string;
    paidAt: number | null;
    updatedAt?: number;
    chargedBack?: number;
  },
) {
  await env.DB.prepare(
    `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status,
       paid_at, created_at, updated_at, charged_back_cents) VALUES (?1, ?2, ?3, 'p1', 100, ?4, ?5, 'ideal', 'sandbox', ?6, ?7, ?8, ?9, ?10)`,
  )
    .bind(
      id,
      userId,
      brandId,
      o.cents,
      o.currency ?? "EUR",
      o.status,
      o.paidAt,
      o.paidAt ?? NOW - 1000,
      o.updatedAt ?? o.paidAt ?? NOW - 1000,
      o.chargedBack ?? null,
    )
    .run();
}

describe("dashboard figures", () => {
  it("counts each period from the facts: sign-ups, the funnel, revenue net of refunds and chargebacks, per currency", async () => {
    const brand = await newBrand();
    const other = await newBrand();
    const p = `d${brand}-`;
    await member(brand, `${p}a`, TODAY + 100, "confirmed"); // today, bought
    await member(brand, `${p}b`, TODAY + 200, "not_confirmed"); // today
    await member(brand, `${p}c`, TODAY - 5 * DAY_S, "confirmed"); // 7 days
    await member(brand, `${p}d`, TODAY - 20 * DAY_S, "confirmed"); // 30 days, bought
    await member(brand, `${p}e`, TODAY - 40 * DAY_S, "confirmed"); // before the 30 days
    await member(other, `${p}x`, TODAY + 300, "confirmed"); // another brand
    await payment(brand, `${p}a`, `${p}1`, { cents: 1000, status: "paid", paidAt: TODAY + 500 });
    await payment(brand, `${p}d`, `${p}2`, { cents: 2000, status: "paid", paidAt: TODAY - 3 * DAY_S });
    await payment(brand, `${p}d`, `${p}3`, { cents: 500, status: "paid", paidAt: TODAY - 10 * DAY_S });
    await payment(brand, `${p}e`, `${p}4`, { cents: 9999, status: "paid", paidAt: TODAY - 40 * DAY_S });
    await payment(brand, `${p}a`, `${p}5`, { cents: 700, status: "failed", paidAt: null });
    await payment(brand, `${p}e`, `${p}6`, {
      cents: 1500,
      status: "charged_back",
      paidAt: TODAY - 15 * DAY_S,
      updatedAt: TODAY - 12 * DAY_S,
      chargedBack: 1500,
    });
    await payment(brand, `${p}c`, `${p}7`, { cents: 4900, currency: "SEK", status: "paid", paidAt: TODAY - 2 * DAY_S });
    await payment(other, `${p}x`, `${p}8`, { cents: 123, status: "paid", paidAt: TODAY + 600 });
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO refunds (id, payment_id, user_id, credits, amount_cents, currency, status, created_at) VALUES (?1, ?2, ?3, 40, 200, 'EUR', 'refunded', ?4)",
      ).bind(`${p}r1`, `${p}3`, `${p}d`, TODAY - 9 * DAY_S),
      // A failed refund gave nothing back.
      env.DB.prepare(
        "INSERT INTO refunds (id, payment_id, user_id, credits, amount_cents, currency, status, created_at) VALUES (?1, ?2, ?3, 40, 300, 'EUR', 'failed', ?4)",
      ).bind(`${p}r2`, `${p}2`, `${p}d`, TODAY - 1 * DAY_S),
    ]);

    const board = await dashboard(env.DB, brand, NOW);
    const f = board.figures;
    expect(f.signups).toEqual({ today: 2, "7d": 3, "30d": 4 });
    expect(f.activations).toEqual({ today: 1, "7d": 2, "30d": 3 });
    expect(f.firstPurchases).toEqual({ today: 1, "7d": 2, "30d": 3 });
    expect(f.gross.EUR).toEqual({ today: 1000, "7d": 3000, "30d": 5000 });
    expect(f.refunds.EUR).toEqual({ today: 0, "7d": 0, "30d": 200 });
    expect(f.chargebacks.EUR).toEqual({ today: 0, "7d": 0, "30d": 1500 });
    expect(f.net.EUR).toEqual({ today: 1000, "7d": 3000, "30d": 3300 });
    expect(f.net.SEK).toEqual({ today: 0, "7d": 4900, "30d": 4900 });
    expect(f.payingMembers).toEqual({ today: 1, "7d": 3, "30d": 4 });
    expect(f.payments).toEqual({ today: 1, "7d": 3, "30d": 5 });
    // The chart: net per day, the chargeback on the day it came, the refund on its day.
    expect(board.revenueByDay.EUR!.reduce((a, b) => a + b, 0)).toBe(3300);
    expect(board.revenueByDay.EUR!.at(-1)).toBe(1000);
    expect(board.revenueByDay.EUR![29 - 12]).toBe(-1500);
    // Every brand's row is there; "all brands" adds them up.
    const all = await dashboard(env.DB, null, NOW);
    const perBrand = all.perBrand.find((b) => b.id === brand)!;
    expect(perBrand.figures.net.EUR).toEqual(f.net.EUR);
    expect(all.perBrand.find((b) => b.id === other)!.figures.net.EUR!["30d"]).toBe(123);
    const sum = all.perBrand.reduce((s, b) => s + (b.figures.net.EUR?.["30d"] ?? 0), 0);
    expect(all.figures.net.EUR!["30d"]).toBe(sum);
  });

  it("a seeded month: the dashboard's revenue equals the completed payments minus refunds and chargebacks", async () => {
    const brand = await newBrand();
    const seeded = await seedConsoleData(env.DB, {
      members: 300,
      payments: 1200,
      now: NOW,
      prefix: `s${brand}-`,
      brandIds: [brand],
    });
    expect(seeded.refunds).toBeGreaterThan(0);
    expect(seeded.chargebacks).toBeGreaterThan(0);
    const since = TODAY - 29 * DAY_S;
    // Computed here the plain way, payment by payment and refund by refund.
    const payments = (
      await env.DB.prepare(
        "SELECT amount_cents, status, paid_at, updated_at, charged_back_cents FROM payments WHERE brand_id = ?1",
      )
        .bind(brand)
        .all<{
          amount_cents: number;
          status: string;
          paid_at: number | null;
          updated_at: number;
          charged_back_cents: number | null;
        }>()
    ).results;
    const refunds = (
      await env.DB.prepare(
        "SELECT r.amount_cents, r.status, r.created_at FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE p.brand_id = ?1",
      )
        .bind(brand)
        .all<{ amount_cents: number; status: string; created_at: number }>()
    ).results;
    const completed = payments
      .filter((x) => x.paid_at !== null && x.paid_at >= since)
      .reduce((s, x) => s + x.amount_cents, 0);
    const refunded = refunds
      .filter((r) => r.status === "refunded" && r.created_at >= since)
      .reduce((s, r) => s + r.amount_cents, 0);
    const chargedBack = payments
      .filter((x) => x.status === "charged_back" && x.updated_at >= since)
      .reduce((s, x) => s + (x.charged_back_cents ?? 0), 0);
    expect(completed).toBeGreaterThan(0);
    const board = await dashboard(env.DB, brand, NOW);
    expect(board.figures.gross.EUR!["30d"]).toBe(completed);
    expect(board.figures.net.EUR!["30d"]).toBe(completed - refunded - chargedBack);
    expect(board.revenueByDay.EUR!.reduce((a, b) => a + b, 0)).toBe(completed - refunded - chargedBack);
  });
});

describe("dashboard page", () => {
  it("opens for every role, server-rendered with its SVG charts and no script", async () => {
    for (const role of ["admin", "support", "moderator", "finance"] as const) {
      const res = await get("/admin", { cookie: await operatorCookie((await createOperator(role)).id) });
      expect(res.status, role).toBe(200);
      const html = await res.text();
      expect(html).toContain("Dashboard · All brands");
      expect(html).toContain("<svg");
      expect(html).toContain("Open safety cases");
      expect(html).not.toMatch(/<script/i);
    }
    const brand = await newBrand();
    const res = await get(`/admin?brand=${brand}`, {
      cookie: await operatorCookie((await createOperator("finance")).id),
    });
    expect(await res.text()).toContain(`Dashboard · Dash ${brand}`);
    // A made-up brand parameter shows all brands, not an error.
    const bad = await get("/admin?brand=1%20OR%201", {
      cookie: await operatorCookie((await createOperator("finance")).id),
    });
    expect(await bad.text()).toContain("Dashboard · All brands");
  });
});
