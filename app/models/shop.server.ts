/**
 * The shop as far as the pages need it: the credit packages p0–p3 with their prices, a member's
 * payments (transactions) and what costs credits. Checkout itself belongs to the payments work.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, desc, eq } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { PAYMENT_METHODS, PREMIUM_TIERS, type Language } from "~/lib/constants";
import type { BrandWithCompany } from "./brand.server";
import { pricesFor, type Prices } from "./credits.server";
import { perCreditRange, worthText, type PricedPackage } from "~/lib/credit-worth";

export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export function isPaymentMethod(value: string | undefined): value is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value ?? "");
}

export function formatMoney(lng: Language, cents: number, currency: string, digits = 2): string {
  return new Intl.NumberFormat(lng, {
    style: "currency",
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(cents / 100);
}

export type PackageRow = {
  id: string;
  tier: (typeof PREMIUM_TIERS)[number];
  credits: number;
  price_cents: number;
  currency: string;
};

export function toPackage(lng: Language, r: PackageRow) {
  return {
    id: r.id,
    tier: r.tier,
    credits: r.credits,
    price: formatMoney(lng, r.price_cents, r.currency),
    // To the cent, as every other price on the page (decision 215): €9.95 for 50 credits is "€0.20 per credit".
    perCredit: formatMoney(lng, r.price_cents / r.credits, r.currency),
  };
}
export type Package = ReturnType<typeof toPackage>;

/** Whose prices: a brand (its own package prices) in a currency (the brand's; euros for SEPA). */
export type PriceBrand = { id: number; currency: string };

/**
 * Packages as sold on a brand in `currency`, cheapest tier first, each at its resolved price
 * (decision 227): the brand's own price of the package (package_brand_prices, in that currency), else
 * the shared price in the currency (package_prices). A package with neither is not sold there, so a
 * package priced for some brands only is sold on those only. One-time packages (the try-out) are sold
 * by id only, never listed with the tiers. The one place a price is resolved: the pricing page, the
 * shop, the checkout (whose payment row keeps the amount the webhook checks) and direct debit read it.
 * One statement, so callers can batch it.
 */
export function packagesStatement(db: D1Database, brand: PriceBrand, id?: string): D1PreparedStatement {
  const sql = `SELECT p.id, p.tier, p.credits, COALESCE(bp.price_cents, pp.price_cents) AS price_cents, ?2 AS currency, p.one_time
    FROM packages p
    LEFT JOIN package_brand_prices bp ON bp.package_id = p.id AND bp.brand_id = ?1 AND bp.currency = ?2
    LEFT JOIN package_prices pp ON pp.package_id = p.id AND pp.currency = ?2
    WHERE (bp.price_cents IS NOT NULL OR pp.price_cents IS NOT NULL)`;
  return id === undefined
    ? // oxlint-disable-next-line no-restricted-properties -- goes into payments' shopData and directdebit's raw batches
      db.prepare(`${sql} AND p.one_time = 0 ORDER BY p.tier, p.id`).bind(brand.id, brand.currency)
    : // oxlint-disable-next-line no-restricted-properties -- goes into payments' shopData and directdebit's raw batches
      db.prepare(`${sql} AND p.id = ?3`).bind(brand.id, brand.currency, id);
}

/** The packages of the brand in its currency, with prices formatted in the page language. */
export async function listPackages(context: AppLoadContext, lng: Language, brand: PriceBrand): Promise<Package[]> {
  const { results } = await packagesStatement(context.env.DB, brand).all<PackageRow>();
  return results.map((r) => toPackage(lng, r));
}

/**
 * What a message, a gift and a photo unlock cost in the member's country: credits and their money
 * value in the brand's currency, from the packages on sale (decision 179).
 */
export function creditWorth(lng: Language, currency: string, packages: PricedPackage[], prices: Prices) {
  const range = perCreditRange(packages);
  const money = (credits: number) => worthText(credits, range, (c) => formatMoney(lng, c, currency));
  return {
    message: { credits: prices.message, money: money(prices.message) },
    gift: { credits: prices.gift, money: money(prices.gift) },
    photo: { credits: prices.photo, money: money(prices.photo) },
  };
}
export type CreditWorth = ReturnType<typeof creditWorth>;

/** A country's name in the page language; null for none or an unknown code ("XX"). */
export function countryName(lng: Language, code: string | null | undefined): string | null {
  if (!code || !/^[A-Z]{2}$/.test(code) || code === "XX") return null;
  try {
    return new Intl.DisplayNames([lng], { type: "region" }).of(code) ?? null;
  } catch {
    return null;
  }
}

/** creditWorth with its own read of the packages (pages that do not read them already). */
export async function creditWorthFor(context: AppLoadContext, lng: Language, brand: PriceBrand, prices: Prices) {
  const { results } = await packagesStatement(context.env.DB, brand).all<PackageRow>();
  return creditWorth(lng, brand.currency, results, prices);
}

/**
 * What costs credits on this brand, and the credits a message costs per country
 * (minimum_message_costs, docs/product/data.md §3): pricesFor's figures, the ones the chat charges.
 */
export function creditCosts(brand: BrandWithCompany, lng: Language) {
  const names = new Intl.DisplayNames([lng], { type: "region" });
  const countries = Object.keys(brand.minimumMessageCosts)
    .map((code) => ({ code, name: names.of(code) ?? code, credits: pricesFor(brand, code).message }))
    .sort((a, b) => a.name.localeCompare(b.name, lng));
  return { ...pricesFor(brand, null), countries };
}

type PaymentRow = Pick<
  typeof schema.payments.$inferSelect,
  | "id"
  | "packageId"
  | "credits"
  | "amountCents"
  | "currency"
  | "method"
  | "transactionFeeCents"
  | "status"
  | "createdAt"
>;

/**
 * The locale dates are written in: the page language, with English as written in Europe ("24 Nov
 * 2026, 13:46"), not the US order that a bare "en" gives in Intl (decision 179).
 */
export const dateLocale = (lng: Language) => (lng === "en" ? "en-GB" : lng);

function toTransaction(lng: Language, r: PaymentRow) {
  return {
    id: r.id,
    packageId: r.packageId,
    credits: r.credits,
    amount: formatMoney(lng, r.amountCents, r.currency),
    fee: formatMoney(lng, r.transactionFeeCents, r.currency),
    method: r.method,
    status: r.status,
    date: new Intl.DateTimeFormat(dateLocale(lng), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(
      new Date(r.createdAt * 1000),
    ),
  };
}
export type Transaction = ReturnType<typeof toTransaction>;

/** The columns a transaction shows. */
function paymentsOf(context: AppLoadContext) {
  const { payments } = schema;
  const { id, packageId, credits, amountCents, currency, method, transactionFeeCents, status, createdAt } = payments;
  return getDb(context.env.DB)
    .select({ id, packageId, credits, amountCents, currency, method, transactionFeeCents, status, createdAt })
    .from(payments);
}

/** A member's payments, newest first (uses the payments_user index). */
export async function listTransactions(context: AppLoadContext, lng: Language, userId: string, limit = 50) {
  const { payments } = schema;
  const rows = await paymentsOf(context)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt))
    .limit(limit);
  return rows.map((r) => toTransaction(lng, r));
}

/** One payment, only if it is the member's own (others' ids answer null → 404). */
export async function getTransaction(context: AppLoadContext, lng: Language, userId: string, id: string) {
  const { payments } = schema;
  const row = await paymentsOf(context)
    .where(and(eq(payments.id, id), eq(payments.userId, userId)))
    .get();
  return row ? toTransaction(lng, row) : null;
}

/** The member's last paid order: what the repeat order would buy again. */
export async function lastPaidOrder(context: AppLoadContext, lng: Language, userId: string) {
  const { payments } = schema;
  const row = await paymentsOf(context)
    .where(and(eq(payments.userId, userId), eq(payments.status, "paid")))
    .orderBy(desc(payments.createdAt))
    .limit(1)
    .get();
  return row ? toTransaction(lng, row) : null;
}
