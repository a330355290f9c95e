/**
 * The console's payments (decision 178): the filtered, keyset-paged list, one
 * payment with everything recorded about it, the accounting export, and finance marking a provider
 * alert dealt with (audited). A refund goes through the payments model (operatorRefund), the VAT
 * through its vatLineOf (the receipt's).
 */
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { nowS } from "~/lib/dates";
import { auditAfterChange, type Actor } from "./audit.server";
import { getDb, schema } from "../../../db/client";
import type { BrandWithCompany } from "../brand.server";
import { vatLineOf } from "../payments/views.server";
import { type PaymentRow } from "../payments/common.server";
import { walletStatement } from "../../wallet/wallet.server";
import { settlementOfLines } from "../settlements.server";
import type { Env } from "../../lib/env";

export const PAYMENTS_PAGE = 50;

/** An amount typed as "12", "12.5" or "12,50", in minor units (exact: no float arithmetic); in app/lib for the brand form. */
export { amountCentsSchema } from "~/lib/amount";

export const PAYMENT_STATUSES = schema.payments.status.enumValues;

export type PaymentFilter = {
  brandId?: number;
  status?: (typeof PAYMENT_STATUSES)[number];
  method?: string;
  country?: string;
  /** created_at from (inclusive) and to (exclusive), unix seconds. */
  from?: number;
  to?: number;
  /** Amount in minor units of the payment's currency, inclusive. */
  minCents?: number;
  maxCents?: number;
  /** Only payments where the provider's record and ours disagree and nobody dealt with it yet. */
  alert?: boolean;
  /** Keyset: the last row of the previous page ("createdAt.id"). */
  after?: { createdAt: number; id: string };
};

/**
 * Newest first, PAYMENTS_PAGE at a time, paged on (created_at, id) so page 4,000 costs what page 1
 * costs; the indexes payments_created / payments_brand_created keep the order without a sort.
 */
export async function listPayments(d1: D1Database, f: PaymentFilter) {
  const { payments: P, users: U } = schema;
  const where: SQL[] = [];
  if (f.brandId !== undefined) where.push(eq(P.brandId, f.brandId));
  if (f.status) where.push(eq(P.status, f.status));
  if (f.method) where.push(eq(P.method, f.method));
  if (f.country) where.push(eq(P.paymentCountry, f.country));
  if (f.from !== undefined) where.push(gte(P.createdAt, f.from));
  if (f.to !== undefined) where.push(lt(P.createdAt, f.to));
  if (f.minCents !== undefined) where.push(gte(P.amountCents, f.minCents));
  if (f.maxCents !== undefined) where.push(lte(P.amountCents, f.maxCents));
  if (f.alert) where.push(isNotNull(P.providerAlertAt), isNull(P.providerAlertDealtAt));
  if (f.after)
    where.push(or(lt(P.createdAt, f.after.createdAt), and(eq(P.createdAt, f.after.createdAt), lt(P.id, f.after.id)))!);
  const rows = await getDb(d1)
    .select({
      id: P.id,
      brandId: P.brandId,
      userId: P.userId,
      email: U.email,
      status: P.status,
      method: P.method,
      country: P.paymentCountry,
      amountCents: P.amountCents,
      currency: P.currency,
      credits: P.credits,
      createdAt: P.createdAt,
      paidAt: P.paidAt,
      alert: P.providerAlert,
      alertDealt: P.providerAlertDealtAt,
      // The payment's refunds (refunds_payment index, a handful at most): what its refund state is made of.
      refundedCents: sql<number>`(SELECT COALESCE(SUM(r.amount_cents), 0) FROM refunds r WHERE r.payment_id = ${P.id} AND r.status = 'refunded')`,
      refundLive: sql<number>`EXISTS (SELECT 1 FROM refunds r WHERE r.payment_id = ${P.id} AND r.status IN ('queued', 'checking', 'pending', 'processing'))`,
      refundFailed: sql<number>`EXISTS (SELECT 1 FROM refunds r WHERE r.payment_id = ${P.id} AND r.status IN ('failed', 'canceled'))`,
    })
    .from(P)
    .leftJoin(U, eq(U.id, P.userId))
    .where(and(...where))
    .orderBy(desc(P.createdAt), desc(P.id))
    .limit(PAYMENTS_PAGE + 1);
  const more = rows.length > PAYMENTS_PAGE;
  const page = (more ? rows.slice(0, PAYMENTS_PAGE) : rows).map(
    ({ refundedCents, refundLive, refundFailed, ...r }) => ({
      ...r,
      refund: refundState({ amountCents: r.amountCents, refundedCents, live: !!refundLive, failed: !!refundFailed }),
    }),
  );
  const last = page.at(-1);
  return { rows: page, next: more && last ? `${last.createdAt}.${last.id}` : null };
}

export type RefundState = "refunded" | "partly_refunded" | "refund_pending" | "refund_failed" | null;

/**
 * A payment's refund state in the list, from its refunds: one the provider has not confirmed yet is
 * pending (whatever came before it); else what was paid out (all of the amount, or part); else a refund
 * that failed or was canceled; else none.
 */
export function refundState(o: {
  amountCents: number;
  refundedCents: number;
  live: boolean;
  failed: boolean;
}): RefundState {
  if (o.live) return "refund_pending";
  if (o.refundedCents >= o.amountCents && o.refundedCents > 0) return "refunded";
  if (o.refundedCents > 0) return "partly_refunded";
  return o.failed ? "refund_failed" : null;
}

/** How many payments carry a disagreement with the provider nobody dealt with yet: the list's banner for finance. */
export async function providerAlertCount(d1: D1Database): Promise<number> {
  const P = schema.payments;
  const r = await getDb(d1)
    .select({ n: sql<number>`COUNT(*)` })
    .from(P)
    .where(and(isNotNull(P.providerAlertAt), isNull(P.providerAlertDealtAt)))
    .get();
  return r?.n ?? 0;
}

export type AlertDealtResult = { ok: true } | { ok: false; error: string };

/**
 * Finance marks a provider alert dealt with: who, when and what was done, with the audit row
 * (`payment.alert_dealt`) in the same batch. Guarded on the alert as the operator saw it (its time),
 * so an alert that changed meanwhile (a new disagreement) is not closed unread, and twice is refused.
 */
export async function markAlertDealt(
  d1: D1Database,
  actor: Actor,
  paymentId: string,
  o: { alertAt: number; note: string },
): Promise<AlertDealtResult> {
  const P = schema.payments;
  const db = getDb(d1);
  const row = await db
    .select({ alert: P.providerAlert, at: P.providerAlertAt, dealt: P.providerAlertDealtAt })
    .from(P)
    .where(eq(P.id, paymentId))
    .get();
  if (!row?.alert || row.at === null) return { ok: false, error: "This payment has no provider alert." };
  if (row.dealt !== null) return { ok: false, error: "This alert was marked dealt with already." };
  if (row.at !== o.alertAt)
    return { ok: false, error: "The alert changed while you read it: read it again before marking it dealt with." };
  const now = nowS();
  const [changed] = await db.batch([
    db
      .update(P)
      .set({ providerAlertDealtAt: now, providerAlertDealtBy: actor.id, providerAlertNote: o.note })
      .where(and(eq(P.id, paymentId), eq(P.providerAlertAt, o.alertAt), isNull(P.providerAlertDealtAt))),
    auditAfterChange(
      db,
      actor,
      {
        action: "payment.alert_dealt",
        targetType: "payment",
        targetId: paymentId,
        reason: o.note,
        before: { providerAlert: row.alert, dealt: false },
        after: { providerAlert: row.alert, dealt: true },
      },
      now,
    ),
  ]);
  if ((changed.meta.changes ?? 0) !== 1) return { ok: false, error: "This alert was marked dealt with already." };
  return { ok: true };
}

/** What the filters offer: the methods and countries payments were made with. */
export async function paymentFilterOptions(d1: D1Database) {
  const { paymentMethods: M } = schema;
  const db = getDb(d1);
  const [methods, countries] = await db.batch([
    db.selectDistinct({ v: M.method }).from(M).orderBy(M.method),
    db
      .selectDistinct({ v: M.country })
      .from(M)
      .where(sql`${M.country} <> '*'`)
      .orderBy(M.country),
  ]);
  return { methods: methods.map((m) => m.v), countries: countries.map((c) => c.v) };
}

/**
 * One payment with what the schema records of it: the row (provider id, customer, mandate, times,
 * failure, chargeback), the member, the ledger rows it caused (purchase, refunds, chargeback and its
 * reversal), its refunds with the provider's ids, its discount code and the console's audit rows.
 * Webhook calls themselves are not stored: what each one changed is (decision 090: they re-fetch).
 */
export async function paymentDetail(env: Pick<Env, "DB" | "MEMBER_HUB">, id: string) {
  const db = getDb(env.DB);
  const { payments: P, users: U, refunds: R, discountCodes: D, auditLog: A, operators: O } = schema;
  const [[row], [member], refunds, [code], audit, settled] = await db.batch([
    db.select().from(P).where(eq(P.id, id)),
    db
      .select({ id: U.id, email: U.email, deletedAt: U.deletedAt, directdebitBlocked: U.directdebitBlocked })
      .from(U)
      .where(eq(U.id, sql`(SELECT user_id FROM payments WHERE id = ${id})`)),
    db.select().from(R).where(eq(R.paymentId, id)).orderBy(asc(R.createdAt)),
    db
      .select({ code: D.code, percentage: D.valuePercentage })
      .from(D)
      .where(eq(D.id, sql`(SELECT discount_code_id FROM payments WHERE id = ${id})`)),
    db
      .select({ entry: A, operatorEmail: O.email })
      .from(A)
      .leftJoin(O, eq(O.id, A.operatorId))
      .where(and(eq(A.targetType, "payment"), eq(A.targetId, id)))
      .orderBy(desc(A.id))
      .limit(50),
    // The Mollie settlements that carried it, its refunds and chargebacks (decision 209).
    db.select().from(schema.settlementLines).where(eq(schema.settlementLines.paymentId, id)),
  ]);
  if (!row) return null;
  // The payment's rows of the member's ledger and their balance, from their wallet (decision 189).
  const { rows: ledger, balance } = await walletStatement(env, row.userId, {
    refId: id,
    reasons: ["purchase", "refund", "chargeback", "chargeback_reversed"],
    oldestFirst: true,
  });
  const liveRefunds = refunds.filter((r) => r.status !== "failed" && r.status !== "canceled");
  return {
    row,
    member: member ? { ...member, credits: balance } : null,
    ledger,
    refunds,
    code: code ?? null,
    audit,
    settled,
    refundedCents: liveRefunds.reduce((s, r) => s + r.amountCents, 0),
    refundedCredits: liveRefunds.reduce((s, r) => s + r.credits, 0),
  };
}

// ─── The accounting export ───

/** Minor units as a decimal amount ("-12.05"), exact (integer arithmetic, no float rounding). */
export function decimal(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

const csvCell = (v: string | number | null) => {
  const s = v === null ? "" : String(v);
  // Quote what needs it, and defuse spreadsheet formulas (a cell starting with = + - @ from data we did not write).
  const safe = /^[=+@]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

export const EXPORT_COLUMNS = [
  "type",
  "id",
  "payment_id",
  "date_utc",
  "member_id",
  "method",
  "vat_country",
  "vat_rate_percent",
  "currency",
  "gross",
  "vat",
  "net",
  "payer_country",
  "payer_country_differs",
  "settlement_id",
  "settled",
  "settled_currency",
  "settlement_check",
] as const;

type ExportLine = {
  type: "payment" | "refund" | "chargeback" | "total";
  id: string;
  paymentId: string;
  at: number | null;
  memberId: string;
  method: string;
  country: string;
  rateBp: number;
  currency: string;
  grossCents: number;
  vatCents: number;
  netCents: number;
  /** The payer's card or bank country (VAT evidence) and whether it differs from the payment country. */
  payerCountry: string | null;
  payerDiffers: boolean;
  /** The Mollie settlement that carried it, what it settled and how that compares with ours (decision 209). */
  settlement: { settlementId: string; settledCents: number; currency: string; state: string } | null;
};

/** The UTC month "YYYY-MM" as [start, end) unix seconds. */
export function monthRange(month: string): [number, number] {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return [Date.UTC(y, m - 1, 1) / 1000, Date.UTC(y, m, 1) / 1000];
}

const EXPORT_CHUNK = 2000;

/**
 * A brand's month for accounting: every payment paid in it (gross, VAT and net as on its receipt),
 * every refund made in it and every chargeback applied in it (negative, with the VAT of the payment's
 * country, computed the same way), then one total line per VAT country and currency. Read in
 * keyset chunks so a big month is never one huge query.
 */
export async function accountingLines(d1: D1Database, brand: BrandWithCompany, month: string) {
  const [start, end] = monthRange(month);
  const db = getDb(d1);
  const { payments: P, refunds: R } = schema;
  const lines: ExportLine[] = [];
  const line = (
    type: ExportLine["type"],
    id: string,
    p: Pick<PaymentRow, "id" | "userId" | "method" | "paymentCountry" | "currency" | "providerCountry">,
    at: number | null,
    grossCents: number,
  ) => {
    // A refund or chargeback takes back the VAT its amount carries: computed on the amount, then negated
    // (rounding a negative half would differ by a cent from the receipt's rounding).
    const sign = grossCents < 0 ? -1 : 1;
    const vat = vatLineOf(brand.company, p, Math.abs(grossCents));
    lines.push({
      type,
      id,
      paymentId: p.id,
      at,
      memberId: p.userId,
      method: p.method,
      country: vat.country,
      rateBp: vat.rateBp,
      currency: p.currency,
      grossCents,
      vatCents: sign * vat.vatCents,
      netCents: sign * vat.netCents,
      payerCountry: p.providerCountry,
      payerDiffers: !!p.providerCountry && !!p.paymentCountry && p.providerCountry !== p.paymentCountry,
      settlement: null,
    });
  };
  // Mollie's ids of each line, to find the settlement that carried it.
  const paymentRefs = new Map<string, string>();
  const refundRefs = new Map<string, string>();
  // Payments paid in the month (whatever happened to them later: refunds and chargebacks are their own lines).
  let after: { paidAt: number; id: string } | null = null;
  for (;;) {
    const chunk: PaymentRow[] = await db
      .select()
      .from(P)
      .where(
        and(
          eq(P.brandId, brand.id),
          gte(P.paidAt, start),
          lt(P.paidAt, end),
          inArray(P.status, ["paid", "refunded", "charged_back"]),
          after
            ? or(sql`${P.paidAt} > ${after.paidAt}`, and(eq(P.paidAt, after.paidAt), sql`${P.id} > ${after.id}`))
            : undefined,
        ),
      )
      .orderBy(asc(P.paidAt), asc(P.id))
      .limit(EXPORT_CHUNK);
    for (const p of chunk) {
      line("payment", p.id, p, p.paidAt, p.amountCents);
      if (p.providerRef) paymentRefs.set(p.id, p.providerRef);
    }
    if (chunk.length < EXPORT_CHUNK) break;
    const last = chunk.at(-1)!;
    after = { paidAt: last.paidAt!, id: last.id };
  }
  // Refunds the provider confirmed in the month (money that went back; one still queued, pending or
  // processing waits for the month it is confirmed in; a failed or canceled one returned nothing), and
  // chargebacks applied in it. Refunds confirmed before refunded_at existed count at their creation.
  const refundedAt = sql<number>`COALESCE(${R.refundedAt}, ${R.createdAt})`;
  const [refunds, chargebacks] = await db.batch([
    // Named fields: refunds and payments share column names, which one result row cannot hold twice.
    db
      .select({
        id: sql<string>`${R.id}`.as("refund_id"),
        amountCents: sql<number>`${R.amountCents}`.as("refund_cents"),
        createdAt: sql<number>`${refundedAt}`.as("refund_at"),
        paymentId: sql<string>`${P.id}`.as("payment_id"),
        userId: P.userId,
        method: P.method,
        paymentCountry: P.paymentCountry,
        providerCountry: P.providerCountry,
        currency: P.currency,
        providerRef: sql<string | null>`${R.providerRef}`.as("refund_ref"),
      })
      .from(R)
      .innerJoin(P, eq(P.id, R.paymentId))
      .where(
        and(
          eq(P.brandId, brand.id),
          sql`${refundedAt} >= ${start}`,
          sql`${refundedAt} < ${end}`,
          eq(R.status, "refunded"),
        ),
      )
      .orderBy(refundedAt, asc(R.id)),
    db
      .select()
      .from(P)
      .where(and(eq(P.brandId, brand.id), eq(P.status, "charged_back"), gte(P.updatedAt, start), lt(P.updatedAt, end)))
      .orderBy(asc(P.updatedAt), asc(P.id)),
  ]);
  for (const r of refunds) {
    line("refund", r.id, { ...r, id: r.paymentId }, r.createdAt, -r.amountCents);
    if (r.providerRef) refundRefs.set(r.id, r.providerRef);
  }
  for (const p of chargebacks) line("chargeback", p.id, p, p.updatedAt, -(p.chargedBackCents ?? p.amountCents));
  const settled = await settlementOfLines(d1, {
    paymentRefs: [...paymentRefs.values()],
    refundRefs: [...refundRefs.values()],
    chargebackPayments: chargebacks.map((p) => p.id),
  });
  for (const l of lines) {
    const key =
      l.type === "payment"
        ? `payment:${paymentRefs.get(l.id)}`
        : l.type === "refund"
          ? `refund:${refundRefs.get(l.id)}`
          : `chargeback:${l.paymentId}`;
    l.settlement = settled.get(key) ?? null;
  }
  // One total per VAT country and currency: the sums of the lines above.
  const totals = new Map<string, ExportLine>();
  for (const l of lines) {
    const key = `${l.country}|${l.currency}`;
    const t = totals.get(key) ?? {
      ...l,
      type: "total" as const,
      id: "",
      paymentId: "",
      at: null,
      memberId: "",
      method: "",
      grossCents: 0,
      vatCents: 0,
      netCents: 0,
      payerCountry: null,
      payerDiffers: false,
      settlement: null,
    };
    t.grossCents += l.grossCents;
    t.vatCents += l.vatCents;
    t.netCents += l.netCents;
    totals.set(key, t);
  }
  return [
    ...lines,
    ...[...totals.values()].sort((a, b) => `${a.country}${a.currency}`.localeCompare(`${b.country}${b.currency}`)),
  ];
}

/** The export as CSV (RFC 4180, CRLF lines, a header row). */
export function accountingCsv(lines: ExportLine[]): string {
  const rows = lines.map((l) =>
    [
      l.type,
      l.id,
      l.paymentId,
      l.at === null ? "" : new Date(l.at * 1000).toISOString().replace("T", " ").slice(0, 19),
      l.memberId,
      l.method,
      l.country,
      (l.rateBp / 100).toFixed(2),
      l.currency,
      decimal(l.grossCents),
      decimal(l.vatCents),
      decimal(l.netCents),
      l.payerCountry,
      l.payerDiffers ? "yes" : "",
      l.settlement?.settlementId ?? "",
      l.settlement ? decimal(l.settlement.settledCents) : "",
      l.settlement?.currency ?? "",
      l.settlement?.state ?? "",
    ]
      .map(csvCell)
      .join(","),
  );
  return [EXPORT_COLUMNS.join(","), ...rows].join("\r\n") + "\r\n";
}
