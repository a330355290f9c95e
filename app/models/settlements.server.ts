/**
 * Mollie's settlements (decision 209): each month the payouts Mollie made are imported with everything
 * they carry (payments, refunds, chargebacks) and its fees, and each item is reconciled against our
 * record: the amount we expect (a payment's amount, or its settlementAmount when Mollie converted the
 * currency; a refund's or chargeback's amount, negative) against what Mollie settled. The finance
 * console shows each settlement with its sums and every line that differs or is not ours; the
 * accounting export names the settlement of each payment, refund and chargeback.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { settlementSource } from "~/lib/payments/index.server";
import { accountOf } from "~/lib/payments/account";
import type { ProviderSettlement, ProviderSettlementItem, SettlementSource } from "~/lib/payments/provider";
import { nowS } from "~/lib/dates";
import { logError } from "~/lib/log.server";

const S = schema.settlements;
const L = schema.settlementLines;
const P = schema.payments;
const R = schema.refunds;

type Ctx = Pick<AppLoadContext, "env" | "deliver">;
type LineRow = typeof L.$inferInsert;

/** D1 binds at most 100 parameters a statement: ids are looked up, and lines written, in chunks. */
const IDS_PER_QUERY = 90;
const LINES_PER_INSERT = 14;

const chunks = <T>(xs: T[], n: number) =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

const unix = (iso: string | null) =>
  iso && !Number.isNaN(Date.parse(iso)) ? Math.floor(Date.parse(iso) / 1000) : null;

/** The month before the one `now` is in, as "YYYY-MM" (the monthly import's month). */
export function previousMonth(now: number): string {
  const d = new Date(now * 1000);
  const prev = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  return `${prev.getUTCFullYear()}-${String(prev.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** What our record expects of each item (in the settlement's currency and sign), looked up by Mollie's ids. */
async function ourRecords(d1: D1Database, items: ProviderSettlementItem[]) {
  const db = getDb(d1);
  const paymentRefs = [...new Set(items.map((i) => i.paymentId).filter(Boolean))];
  const refundRefs = items.filter((i) => i.kind === "refund").map((i) => i.id);
  const payments = new Map<string, typeof P.$inferSelect>();
  const refunds = new Map<string, { id: string; paymentId: string; amountCents: number; currency: string }>();
  for (const ids of chunks(paymentRefs, IDS_PER_QUERY))
    for (const p of await db.select().from(P).where(inArray(P.providerRef, ids))) payments.set(p.providerRef!, p);
  for (const ids of chunks(refundRefs, IDS_PER_QUERY))
    for (const r of await db
      .select({
        ref: R.providerRef,
        id: R.id,
        paymentId: R.paymentId,
        amountCents: R.amountCents,
        currency: R.currency,
      })
      .from(R)
      .where(and(inArray(R.providerRef, ids), sql`${R.status} NOT IN ('failed', 'canceled')`)))
      refunds.set(r.ref!, r);
  return { payments, refunds };
}

/**
 * One item against our record: ok when what Mollie settled is what we expect, differs when not, unknown
 * when we have no such payment, refund or chargeback (a payment of another system on the same account,
 * or one we lost). A payment's expected amount is its own in the same currency, else the settlementAmount
 * Mollie told us on the payment (a converted currency); refunds and chargebacks are negative.
 */
export function reconcile(
  item: ProviderSettlementItem,
  currency: string,
  ours: Awaited<ReturnType<typeof ourRecords>>,
): Omit<LineRow, "settlementId"> {
  const settledCents = item.settled?.cents ?? 0;
  const payment = ours.payments.get(item.paymentId) ?? null;
  const inCurrency = (cents: number | null, cur: string | null) =>
    cents === null ? null : cur === currency ? cents : null;
  let expected: number | null = null;
  let paymentId: string | null = payment?.id ?? null;
  if (item.kind === "payment" && payment && ["paid", "refunded", "charged_back"].includes(payment.status))
    expected =
      inCurrency(payment.amountCents, payment.currency) ??
      inCurrency(payment.settlementCents, payment.settlementCurrency);
  if (item.kind === "refund") {
    const refund = ours.refunds.get(item.id);
    paymentId = refund?.paymentId ?? paymentId;
    // A refund Mollie did not pay out (PayPal's) settles at zero: nothing to compare but that it is ours.
    if (refund) expected = item.settled === null ? 0 : inCurrency(-refund.amountCents, refund.currency);
  }
  if (item.kind === "chargeback" && payment && payment.status === "charged_back")
    expected = inCurrency(-(payment.chargedBackCents ?? payment.amountCents), payment.currency);
  return {
    kind: item.kind,
    providerRef: item.id,
    paymentId,
    settledCents,
    expectedCents: expected,
    state: expected === null ? "unknown" : expected === settledCents ? "ok" : "differs",
  };
}

export type ImportResult =
  | { ok: true; settlements: number; lines: number; notOk: number }
  | { ok: false; reason: "no-source" | "provider" };

/**
 * Imports the settlements Mollie made in `month` ("YYYY-MM") with their items, reconciled: each
 * settlement's row is written anew (a settlement still open grows until paid out) and its lines
 * replaced, in one batch per settlement, so importing twice gives the same rows.
 */
export async function importSettlements(context: Ctx, month: string, now = nowS()): Promise<ImportResult> {
  // Each company's Mollie organisation settles its own money (decision 206): one source per account.
  const companies = await getDb(context.env.DB)
    .select({ id: schema.companies.id, mollieAccount: schema.companies.mollieAccount })
    .from(schema.companies);
  const accounts = [...new Set(companies.map(accountOf))];
  const sources = accounts.map((a) => settlementSource(context, a)).filter((s) => s !== null);
  if (!sources.length) return { ok: false, reason: "no-source" };
  const total = { settlements: 0, lines: 0, notOk: 0 };
  for (const source of sources) {
    const one = await importFrom(context, source, month, now);
    if (!one.ok) return one;
    total.settlements += one.settlements;
    total.lines += one.lines;
    total.notOk += one.notOk;
  }
  return { ok: true, ...total };
}

async function importFrom(context: Ctx, source: SettlementSource, month: string, now: number): Promise<ImportResult> {
  const [year, mon] = month.split("-").map(Number) as [number, number];
  let list: ProviderSettlement[];
  try {
    list = await source.listSettlements(year, mon);
  } catch (e) {
    logError("settlements.list_failed", e);
    return { ok: false, reason: "provider" };
  }
  const d1 = context.env.DB;
  const db = getDb(d1);
  let lines = 0;
  let notOk = 0;
  for (const st of list) {
    let items: ProviderSettlementItem[];
    try {
      items = await source.settlementItems(st.id);
    } catch (e) {
      logError("settlements.read_failed", e, { settlementId: st.id });
      return { ok: false, reason: "provider" };
    }
    const ours = await ourRecords(d1, items);
    const rows = items.map((i) => ({ settlementId: st.id, ...reconcile(i, st.amount.currency, ours) }));
    lines += rows.length;
    notOk += rows.filter((r) => r.state !== "ok").length;
    const values = {
      id: st.id,
      reference: st.reference,
      status: st.status,
      month,
      currency: st.amount.currency,
      amountCents: st.amount.cents,
      feesCents: st.fees.cents,
      feesVatCents: st.feesVat.cents,
      settledAt: unix(st.settledAt),
      createdAt: unix(st.createdAt) ?? now,
      importedAt: now,
    };
    const { id: _id, ...changes } = values;
    await db.batch([
      db.insert(S).values(values).onConflictDoUpdate({ target: S.id, set: changes }),
      db.delete(L).where(eq(L.settlementId, st.id)),
      ...chunks(rows, LINES_PER_INSERT).map((c) => db.insert(L).values(c)),
    ]);
  }
  return { ok: true, settlements: list.length, lines, notOk };
}

// ─── The finance console ───

/** A month's settlements with their sums by kind and the lines that are not as ours. */
export async function settlementsOfMonth(d1: D1Database, month: string) {
  const db = getDb(d1);
  const [settlements, sums, problems] = await db.batch([
    db.select().from(S).where(eq(S.month, month)).orderBy(asc(S.createdAt), asc(S.id)),
    db
      .select({
        settlementId: L.settlementId,
        kind: L.kind,
        cents: sql<number>`SUM(${L.settledCents})`,
        count: sql<number>`COUNT(*)`,
        notOk: sql<number>`SUM(${L.state} <> 'ok')`,
      })
      .from(L)
      .innerJoin(S, eq(S.id, L.settlementId))
      .where(eq(S.month, month))
      .groupBy(L.settlementId, L.kind),
    db
      .select()
      .from(L)
      .innerJoin(S, eq(S.id, L.settlementId))
      .where(and(eq(S.month, month), sql`${L.state} <> 'ok'`))
      .orderBy(asc(L.settlementId), asc(L.kind), asc(L.providerRef))
      .limit(500),
  ]);
  return settlements.map((s) => {
    const of = (kind: "payment" | "refund" | "chargeback") =>
      sums.find((x) => x.settlementId === s.id && x.kind === kind) ?? { cents: 0, count: 0, notOk: 0 };
    const payments = of("payment");
    const refunds = of("refund");
    const chargebacks = of("chargeback");
    // What the items and the fees add up to against what Mollie paid out (other corrections show here).
    const unexplainedCents = s.amountCents - (payments.cents + refunds.cents + chargebacks.cents - s.feesCents);
    return {
      ...s,
      payments,
      refunds,
      chargebacks,
      unexplainedCents,
      problems: problems.filter((p) => p.settlement_lines.settlementId === s.id).map((p) => p.settlement_lines),
    };
  });
}

/**
 * The settlement each payment, refund and chargeback of the accounting export came in, keyed
 * `payment:<tr_…>`, `refund:<re_…>` and `chargeback:<our payment id>` (Mollie's chb_ ids are not ours).
 */
export async function settlementOfLines(
  d1: D1Database,
  o: { paymentRefs: string[]; refundRefs: string[]; chargebackPayments: string[] },
) {
  const db = getDb(d1);
  const out = new Map<string, { settlementId: string; settledCents: number; currency: string; state: string }>();
  const columns = {
    ref: L.providerRef,
    kind: L.kind,
    paymentId: L.paymentId,
    settlementId: L.settlementId,
    settledCents: L.settledCents,
    currency: S.currency,
    state: L.state,
  };
  const refs = [...new Set([...o.paymentRefs, ...o.refundRefs])];
  for (const ids of chunks(refs, IDS_PER_QUERY))
    for (const row of await db
      .select(columns)
      .from(L)
      .innerJoin(S, eq(S.id, L.settlementId))
      .where(inArray(L.providerRef, ids)))
      if (row.kind !== "chargeback") out.set(`${row.kind}:${row.ref}`, row);
  for (const ids of chunks([...new Set(o.chargebackPayments)], IDS_PER_QUERY))
    for (const row of await db
      .select(columns)
      .from(L)
      .innerJoin(S, eq(S.id, L.settlementId))
      .where(and(eq(L.kind, "chargeback"), inArray(L.paymentId, ids))))
      out.set(`chargeback:${row.paymentId}`, row);
  return out;
}
