/** Money as the member reads it: their payments and the receipt. */
import type { Language } from "~/lib/constants";
import { type PaymentRow, ROW_COLUMNS, P, type Ctx, paymentWhere } from "./common.server";
import {
  type PaymentView,
  type PaymentStatus,
  paymentState,
  isBankReasonCode,
  VAT_RATES_BP,
  vatOf,
  vatNumberFor,
} from "../payment-rules";
import { formatMoney, dateLocale } from "../shop.server";
import { toStatement, getDb, schema } from "../../../db/client";
import { and, eq, or, isNull, isNotNull, notInArray, desc, sql } from "drizzle-orm";
import type { PaymentTarget } from "~/lib/payments/index.server";
import type { BrandWithCompany } from "../brand.server";

// ─── Reading payments ───

export function paymentView(lng: Language, row: PaymentRow): PaymentView {
  const status = row.status as PaymentStatus;
  return {
    id: row.id,
    status,
    state: paymentState(status),
    credits: row.credits,
    amount: formatMoney(lng, row.amountCents, row.currency),
    method: row.method,
    packageId: row.packageId,
    sequenceType: row.sequenceType,
    bankReasonCode: isBankReasonCode(row.failureReason) ? row.failureReason : null,
    bankReason: isBankReasonCode(row.failureReason) ? row.bankReason : null,
  };
}

/** One of the member's own payments and how many purchases were paid before it (first purchase: 0). */
export function ownPaymentStatements(db: D1Database, userId: string, id: string) {
  return [
    toStatement(
      db,
      getDb(db)
        .select(ROW_COLUMNS)
        .from(P)
        .where(and(eq(P.id, id), eq(P.userId, userId))),
    ),
    db
      // oxlint-disable-next-line no-restricted-properties -- goes into shopData's raw batch (the payment page's one round trip) beside shop's and discounts' raw statements
      .prepare(
        `SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1 AND status IN ('paid', 'refunded') AND id <> ?2
           AND COALESCE(paid_at, 0) <= (SELECT COALESCE(paid_at, 0) FROM payments WHERE id = ?2)`,
      )
      .bind(userId, id),
  ];
}

export async function ownPaymentWithHistory(context: Ctx, userId: string, id: string) {
  const [one, earlier] = await context.env.DB.batch(ownPaymentStatements(context.env.DB, userId, id));
  const row = (one!.results[0] as PaymentRow | undefined) ?? null;
  return row ? { row, firstPurchase: (earlier!.results[0] as { n: number }).n === 0 } : null;
}

/** One of the member's own payments (another member's id is null → 404). */
export async function ownPayment(context: Ctx, userId: string, id: string): Promise<PaymentRow | null> {
  return paymentWhere(context.env.DB, and(eq(P.id, id), eq(P.userId, userId)));
}

/**
 * The last paid payment that left a valid mandate in this account: what a repeat order buys again
 * (never a one-time package). A mandate made in another company's account is not this one's to charge.
 */
export async function lastMandateOrder(
  context: Ctx,
  target: PaymentTarget,
  userId: string,
): Promise<PaymentRow | null> {
  const db = getDb(context.env.DB);
  const { packages } = schema;
  const row = await db
    .select()
    .from(P)
    .where(
      and(
        eq(P.userId, userId),
        // A payment made before accounts were stored is its brand's, so the member's own company's.
        or(eq(P.providerAccount, target.account), isNull(P.providerAccount)),
        eq(P.status, "paid"),
        isNotNull(P.mandateId),
        notInArray(P.packageId, db.select({ id: packages.id }).from(packages).where(eq(packages.oneTime, true))),
      ),
    )
    .orderBy(desc(P.createdAt), sql`rowid DESC`)
    .limit(1)
    .get();
  return row ?? null;
}

// ─── Receipt ───

/**
 * The VAT in `grossCents` of a payment as its receipt states it: the rate of the buyer's payment
 * country (EU OSS), else the seller's country. The one computation the receipt and the console's
 * accounting export (decision 178) share.
 */
export function vatLineOf(
  company: Pick<BrandWithCompany["company"], "country">,
  row: Pick<PaymentRow, "paymentCountry">,
  grossCents: number,
) {
  const country =
    row.paymentCountry && VAT_RATES_BP[row.paymentCountry] !== undefined ? row.paymentCountry : company.country;
  const rateBp = VAT_RATES_BP[country] ?? VAT_RATES_BP[company.country] ?? 0;
  return { country, rateBp, ...vatOf(grossCents, rateBp) };
}

/** A printable receipt of a paid payment: the seller (companyinfo), the lines and the VAT of the buyer's country. */
export function receiptOf(lng: Language, brand: BrandWithCompany, row: PaymentRow) {
  const c = brand.company;
  const { country, rateBp, vatCents, netCents } = vatLineOf(c, row, row.amountCents);
  const money = (cents: number) => formatMoney(lng, cents, row.currency);
  return {
    seller: {
      name: c.name,
      address: c.address,
      city: c.city,
      country: c.country,
      kvk: c.kvk,
      vatNumber: vatNumberFor(c.vatNumbers, country, c.country),
    },
    brandName: brand.name,
    paidAt: row.paidAt
      ? new Intl.DateTimeFormat(dateLocale(lng), { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(
          new Date(row.paidAt * 1000),
        )
      : null,
    net: money(netCents),
    vat: money(vatCents),
    vatRate: new Intl.NumberFormat(lng, { maximumFractionDigits: 2 }).format(rateBp / 100),
    total: money(row.amountCents),
    original: row.originalAmountCents !== null ? money(row.originalAmountCents) : null,
  };
}
export type Receipt = ReturnType<typeof receiptOf>;
