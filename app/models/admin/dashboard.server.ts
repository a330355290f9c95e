/**
 * The console's dashboard (decision 177): the business per brand and for all brands, today / 7 / 30
 * days (UTC days). Every figure is read from the tables that hold the facts (users, payments,
 * refunds, messages, moderation cases) in one D1 batch, per brand and day; periods and the "all
 * brands" figures are sums of those rows in code. No second counter that could drift.
 *
 * Revenue is net: what was paid in a period minus what was refunded (refunds not failed or canceled)
 * and what banks took back (chargebacks) in that period, per currency (never added across currencies).
 */
import { and, count, eq, gte, inArray, isNotNull, notInArray, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb, schema } from "../../../db/client";
import { nowS } from "~/lib/dates";

export const DAY_S = 86_400;
export const DASHBOARD_DAYS = 30;
export const PERIODS = [
  { key: "today", label: "Today", days: 1 },
  { key: "7d", label: "7 days", days: 7 },
  { key: "30d", label: "30 days", days: 30 },
] as const;
export type PeriodKey = (typeof PERIODS)[number]["key"];

type Triple = Record<PeriodKey, number>;
type Money = Record<string, Triple>;

export type Figures = {
  signups: Triple;
  activations: Triple;
  firstPurchases: Triple;
  payments: Triple;
  payingMembers: Triple;
  gross: Money;
  refunds: Money;
  refundCount: Triple;
  chargebacks: Money;
  chargebackCount: Triple;
  net: Money;
  messages: Triple;
  openCases: number;
};

export type Dashboard = {
  /** The first day shown (UTC day number, seconds / 86400) and the day count. */
  firstDay: number;
  days: number;
  brands: { id: number; name: string }[];
  /** null: all brands. */
  brandId: number | null;
  figures: Figures;
  /** Net revenue per currency and day (index 0 = firstDay). */
  revenueByDay: Record<string, number[]>;
  perBrand: { id: number; name: string; figures: Figures }[];
};

const zero = (): Triple => ({ today: 0, "7d": 0, "30d": 0 });
const emptyFigures = (): Figures => ({
  signups: zero(),
  activations: zero(),
  firstPurchases: zero(),
  payments: zero(),
  payingMembers: zero(),
  gross: {},
  refunds: {},
  refundCount: zero(),
  chargebacks: {},
  chargebackCount: zero(),
  net: {},
  messages: zero(),
  openCases: 0,
});

/** Adds `n` at `day` to every period that contains it. */
function addDay(t: Triple, day: number, today: number, n: number) {
  for (const p of PERIODS) if (day > today - p.days) t[p.key] += n;
}
function addMoney(m: Money, currency: string, day: number, today: number, n: number) {
  addDay((m[currency] ??= zero()), day, today, n);
}

/**
 * The dashboard for `brandId` (null: all brands) as of `now`, with every brand's figures beside it.
 * One round trip (a batch of eight grouped reads over the last 30 days, each on an index).
 */
export async function dashboard(d1: D1Database, brandId: number | null, now = nowS()): Promise<Dashboard> {
  const db = getDb(d1);
  const { users, payments, refunds, chatMessageDays: days, moderationCases: cases, brands } = schema;
  const today = Math.floor(now / DAY_S);
  const firstDay = today - DASHBOARD_DAYS + 1;
  const since = firstDay * DAY_S;
  const inPeriod = (col: typeof payments.paidAt, p: (typeof PERIODS)[number]) =>
    sql`${col} >= ${(today - p.days + 1) * DAY_S}`;
  // The day number of a time: integer division by a literal (a bound number may arrive as REAL and divide exactly).
  const dayOf = (col: AnySQLiteColumn) => sql<number>`${col} / ${sql.raw(String(DAY_S))}`.as("day");
  const purchased = sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.userId} = ${users.id} AND ${payments.paidAt} IS NOT NULL)`;

  const [brandRows, signupRows, paidRows, payingRows, refundRows, chargebackRows, messageRows, caseRows] =
    await db.batch([
      db.select({ id: brands.id, name: brands.name }).from(brands).orderBy(brands.id),
      // The funnel of the members who signed up each day: confirmed since, and bought since.
      db
        .select({
          brandId: users.brandId,
          day: dayOf(users.createdAt),
          signups: count(),
          activations: sql<number>`SUM(${users.status} = 'confirmed')`.as("activations"),
          firstPurchases: sql<number>`SUM(${purchased})`.as("first_purchases"),
        })
        .from(users)
        .where(gte(users.createdAt, since))
        .groupBy(users.brandId, sql`2`),
      // Every payment that was paid (also the ones refunded or charged back since): gross revenue.
      db
        .select({
          brandId: payments.brandId,
          currency: payments.currency,
          day: dayOf(payments.paidAt),
          cents: sql<number>`SUM(${payments.amountCents})`.as("cents"),
          n: count(),
        })
        .from(payments)
        .where(and(isNotNull(payments.paidAt), gte(payments.paidAt, since)))
        .groupBy(payments.brandId, payments.currency, sql`3`),
      // Paying members per period: distinct, so not summable from days.
      db
        .select({
          brandId: payments.brandId,
          p1: sql<number>`COUNT(DISTINCT CASE WHEN ${inPeriod(payments.paidAt, PERIODS[0])} THEN ${payments.userId} END)`.as(
            "p1",
          ),
          p7: sql<number>`COUNT(DISTINCT CASE WHEN ${inPeriod(payments.paidAt, PERIODS[1])} THEN ${payments.userId} END)`.as(
            "p7",
          ),
          p30: sql<number>`COUNT(DISTINCT ${payments.userId})`.as("p30"),
        })
        .from(payments)
        .where(and(isNotNull(payments.paidAt), gte(payments.paidAt, since)))
        .groupBy(payments.brandId),
      db
        .select({
          brandId: payments.brandId,
          currency: refunds.currency,
          day: dayOf(refunds.createdAt),
          cents: sql<number>`SUM(${refunds.amountCents})`.as("cents"),
          n: count(),
        })
        .from(refunds)
        .innerJoin(payments, eq(payments.id, refunds.paymentId))
        .where(and(gte(refunds.createdAt, since), notInArray(refunds.status, ["failed", "canceled"])))
        .groupBy(payments.brandId, refunds.currency, sql`3`),
      // A chargeback is dated by the payment's last change (the chargeback is its last change).
      db
        .select({
          brandId: payments.brandId,
          currency: payments.currency,
          day: dayOf(payments.updatedAt),
          cents: sql<number>`SUM(COALESCE(${payments.chargedBackCents}, ${payments.amountCents}))`.as("cents"),
          n: count(),
        })
        .from(payments)
        .where(and(inArray(payments.status, ["charged_back"]), gte(payments.updatedAt, since)))
        .groupBy(payments.brandId, payments.currency, sql`3`),
      // Counted by the conversations' objects in their coalesced overview write (decision 190), not a scan.
      db.select({ brandId: days.brandId, day: days.day, n: days.messages }).from(days).where(gte(days.day, firstDay)),
      db
        .select({ brandId: cases.brandId, n: count() })
        .from(cases)
        .where(eq(cases.status, "open"))
        .groupBy(cases.brandId),
    ]);

  const byBrand = new Map<number, Figures>(brandRows.map((b) => [b.id, emptyFigures()]));
  const all = emptyFigures();
  const revenueAll: Record<string, number[]> = {};
  const revenueOne: Record<string, number[]> = {};
  const targets = (id: number) => {
    let f = byBrand.get(id);
    if (!f) byBrand.set(id, (f = emptyFigures()));
    return [f, all];
  };
  const chart = (id: number, currency: string, day: number, cents: number) => {
    for (const [want, r] of [
      [true, revenueAll],
      [id === brandId, revenueOne],
    ] as const) {
      if (!want) continue;
      const series = (r[currency] ??= Array.from({ length: DASHBOARD_DAYS }, () => 0));
      series[day - firstDay] = (series[day - firstDay] ?? 0) + cents;
    }
  };

  for (const r of signupRows)
    for (const f of targets(r.brandId)) {
      addDay(f.signups, r.day, today, r.signups);
      addDay(f.activations, r.day, today, Number(r.activations));
      addDay(f.firstPurchases, r.day, today, Number(r.firstPurchases));
    }
  for (const r of paidRows) {
    for (const f of targets(r.brandId)) {
      addMoney(f.gross, r.currency, r.day, today, Number(r.cents));
      addMoney(f.net, r.currency, r.day, today, Number(r.cents));
      addDay(f.payments, r.day, today, r.n);
    }
    chart(r.brandId, r.currency, r.day, Number(r.cents));
  }
  for (const r of payingRows)
    for (const f of targets(r.brandId)) {
      f.payingMembers.today += Number(r.p1);
      f.payingMembers["7d"] += Number(r.p7);
      f.payingMembers["30d"] += Number(r.p30);
    }
  for (const [rows, money, n] of [
    [refundRows, "refunds", "refundCount"],
    [chargebackRows, "chargebacks", "chargebackCount"],
  ] as const) {
    for (const r of rows) {
      for (const f of targets(r.brandId)) {
        addMoney(f[money], r.currency, r.day, today, Number(r.cents));
        addMoney(f.net, r.currency, r.day, today, -Number(r.cents));
        addDay(f[n], r.day, today, r.n);
      }
      chart(r.brandId, r.currency, r.day, -Number(r.cents));
    }
  }
  for (const r of messageRows) for (const f of targets(r.brandId)) addDay(f.messages, r.day, today, r.n);
  for (const r of caseRows) for (const f of targets(r.brandId)) f.openCases += r.n;

  return {
    firstDay,
    days: DASHBOARD_DAYS,
    brands: brandRows,
    brandId,
    figures: brandId === null ? all : (byBrand.get(brandId) ?? emptyFigures()),
    revenueByDay: brandId === null ? revenueAll : revenueOne,
    perBrand: brandRows.map((b) => ({ ...b, figures: byBrand.get(b.id)! })),
  };
}

export type AgeCheckRow = { brandId: number; country: string; started: number; passed: number; refused: number };

/** Age checks (decision 185) started, passed and refused in the last 30 days, per brand and country. */
export async function ageCheckFigures(d1: D1Database, brandId: number | null, now = nowS()): Promise<AgeCheckRow[]> {
  const c = schema.ageCheckCounts;
  const since = new Date((Math.floor(now / DAY_S) - DASHBOARD_DAYS + 1) * DAY_S * 1000).toISOString().slice(0, 10);
  return getDb(d1)
    .select({
      brandId: c.brandId,
      country: c.country,
      started: sql<number>`SUM(${c.started})`.as("started"),
      passed: sql<number>`SUM(${c.passed})`.as("passed"),
      refused: sql<number>`SUM(${c.refused})`.as("refused"),
    })
    .from(c)
    .where(brandId === null ? gte(c.day, since) : and(eq(c.brandId, brandId), gte(c.day, since)))
    .groupBy(c.brandId, c.country)
    .orderBy(c.brandId, c.country);
}
