/** Money: the member's payment country, the methods offered there, and what the shop pages read. */
import { readCookie } from "~/lib/cookies.server";
import type { SequenceType } from "~/lib/payments/provider";
import type { Ctx, PackageRow, Tier, PaymentRow } from "./common.server";
import { type PaymentTarget, paymentProvider } from "~/lib/payments/index.server";
import { acceptsCurrency, sequenceTypeFor, DIRECT_DEBIT_FIRST_METHODS } from "../payment-rules";
import { logError } from "~/lib/log.server";
import { type PriceBrand, packagesStatement } from "../shop.server";
import { ownPaymentStatements } from "./views.server";
import type { CodeLookup } from "../discounts.server";
import type { Language } from "~/lib/constants";

// ─── Payment country and methods ───

const COUNTRY = /^[A-Z]{2}$/;
export const PAYMENT_COUNTRY_COOKIE = "paymentCountry";

/** The member's payment country: the one they chose on the page (cookie), else the visitor's country. */
export function paymentCountryOf(request: Request, visitorCountry: string): string {
  const chosen = readCookie(request, PAYMENT_COUNTRY_COOKIE)?.toUpperCase();
  return chosen && COUNTRY.test(chosen) ? chosen : visitorCountry;
}

export function paymentCountryCookie(country: string): string {
  return `${PAYMENT_COUNTRY_COOKIE}=${country}; Path=/; Max-Age=${365 * 86_400}; SameSite=Lax; Secure; HttpOnly`;
}

export function isCountryCode(value: unknown): value is string {
  return typeof value === "string" && COUNTRY.test(value);
}

/**
 * A method as offered: `sequenceType` is how its payment is created: `first` (leaves a mandate for
 * repeat orders) only when the provider lists the method for first payments, else `oneoff`.
 */
/** `image`: the provider's logo of the method, where its list gives one (the method cards show it). */
export type MethodOption = { method: string; providerMethod: string; sequenceType: SequenceType; image: string | null };
type MethodRow = { method: string; provider_method: string; currencies: string | null };

/** The methods' logos by method, for the method cards (PaymentMethods' `images`). */
export const methodImages = (methods: MethodOption[]): Record<string, string> =>
  Object.fromEntries(methods.flatMap((m) => (m.image ? [[m.method, m.image]] : [])));

const methodRowsStatement = (db: D1Database, country: string) =>
  db
    // oxlint-disable-next-line no-restricted-properties -- goes into shopData's raw batch beside shop's packagesStatement and discounts' codeLookupStatement
    .prepare(
      `SELECT method, provider_method, currencies FROM payment_methods
       WHERE enabled = 1 AND country = (SELECT CASE WHEN EXISTS (SELECT 1 FROM payment_methods WHERE country = ?1) THEN ?1 ELSE '*' END)
       ORDER BY sort`,
    )
    .bind(country);

/**
 * The methods offered for a payment in `country` and `currency`, in the order people there use them:
 * the country's rows of payment_methods (or the "*" rows), switched on, accepting the currency, and
 * activated at the provider. The provider is asked with the sequence type the payment will be created
 * with: one-off (with Apple Pay, which it lists only when asked: the page offers it only where the
 * browser can pay with it), and `first` for the methods that could leave a mandate (Mollie: recurring
 * PayPal depends on the merchant's PayPal account), so a method that cannot is sold as one-off and
 * never promised for repeat orders. If the provider cannot be asked, the table alone decides.
 */
async function offeredMethods(
  context: Ctx,
  target: PaymentTarget,
  rows: MethodRow[],
  country: string,
  amount: { cents: number; currency: string },
): Promise<MethodOption[]> {
  const accepted = rows.filter((r) => acceptsCurrency(r.currencies, amount.currency));
  const wantsMandate = accepted.some((r) => sequenceTypeFor(r.provider_method) === "first");
  let oneoff: Set<string> | null = null;
  let first: Set<string> | null = null;
  let images = new Map<string, string>();
  try {
    const provider = paymentProvider(context, target);
    const [o, f] = await Promise.all([
      provider.listMethods({ country, amount, sequenceType: "oneoff", includeWallets: ["applepay"] }),
      wantsMandate ? provider.listMethods({ country, amount, sequenceType: "first" }) : [],
    ]);
    oneoff = new Set(o.map((m) => m.id));
    images = new Map([...o, ...f].flatMap((m) => (m.image ? [[m.id, m.image] as const] : [])));
    first = new Set(f.map((m) => m.id));
  } catch (e) {
    logError("payments.methods_failed", e);
  }
  return (
    accepted
      // SEPA direct debit is not a checkout method: it starts with the /directdebit form and its mandate.
      .filter(
        (r) =>
          r.provider_method === "directdebit" ||
          !oneoff ||
          oneoff.has(r.provider_method) ||
          first!.has(r.provider_method),
      )
      .map((r) => {
        const mandate = sequenceTypeFor(r.provider_method) === "first" && (!first || first.has(r.provider_method));
        return {
          method: r.method,
          providerMethod: r.provider_method,
          sequenceType: mandate ? "first" : "oneoff",
          image: images.get(r.provider_method) ?? null,
        } as MethodOption;
      })
  );
}

/**
 * The methods as offered to a member that finance blocked for direct debit (decision 228): without SEPA
 * direct debit. (The checkout sells bank methods one-off; the bank's first payment that would leave a
 * SEPA mandate starts on /directdebit, which refuses a blocked member.)
 */
export const withoutDirectDebit = (methods: MethodOption[]): MethodOption[] =>
  methods.filter((m) => m.providerMethod !== "directdebit");

/** The member's direct debit block (decision 228), one statement so the shop's batch can carry it. */
export const directDebitBlockStatement = (db: D1Database, userId: string) =>
  // oxlint-disable-next-line no-restricted-properties -- goes into shopData's raw batch beside shop's packagesStatement
  db.prepare("SELECT directdebit_blocked AS blocked FROM users WHERE id = ?1").bind(userId);

export async function methodsFor(
  context: Ctx,
  target: PaymentTarget,
  country: string,
  amount: { cents: number; currency: string },
): Promise<MethodOption[]> {
  const { results } = await methodRowsStatement(context.env.DB, country).all<MethodRow>();
  return offeredMethods(context, target, results, country, amount);
}

/**
 * The methods a member can pay with now so that a repeat order works next time (the ones the
 * provider lists for first payments, and SEPA direct debit with its own mandate), priced on the
 * cheapest package: what the repeat-order page may promise, nothing more.
 */
export async function mandateMethodsFor(
  context: Ctx,
  target: PaymentTarget,
  country: string,
  brand: PriceBrand,
): Promise<string[]> {
  const { currency } = brand;
  const { results } = await packagesStatement(context.env.DB, brand).all<PackageRow & { one_time?: number }>();
  const cheapest = results.filter((p) => !p.one_time).sort((a, b) => a.price_cents - b.price_cents)[0];
  if (!cheapest) return [];
  const offered = await methodsFor(context, target, country, { cents: cheapest.price_cents, currency });
  return offered.filter((m) => m.sequenceType === "first" || m.providerMethod === "directdebit").map((m) => m.method);
}

/**
 * How this member's bank can set up SEPA direct debit (decision 208): the first of the country's bank
 * methods (iDEAL, Bancontact, EPS; in the table's order, switched on, accepting the currency) that the
 * provider lists for first payments at this amount. Its paid first payment leaves a directdebit mandate
 * made from the very account that paid, so later orders are collected by direct debit. Null when the
 * country has none or the provider cannot be asked (nothing is promised then).
 */
export async function directDebitFirstMethod(
  context: Ctx,
  target: PaymentTarget,
  country: string,
  amount: { cents: number; currency: string },
): Promise<MethodOption | null> {
  const { results } = await methodRowsStatement(context.env.DB, country).all<MethodRow>();
  const rows = results.filter(
    (r) => DIRECT_DEBIT_FIRST_METHODS.includes(r.provider_method) && acceptsCurrency(r.currencies, amount.currency),
  );
  if (rows.length === 0) return null;
  let listed;
  try {
    listed = await paymentProvider(context, target).listMethods({ country, amount, sequenceType: "first" });
  } catch (e) {
    logError("payments.first_methods_failed", e);
    return null;
  }
  for (const r of rows) {
    const m = listed.find((l) => l.id === r.provider_method);
    if (m)
      return { method: r.method, providerMethod: r.provider_method, sequenceType: "first", image: m.image ?? null };
  }
  return null;
}

/**
 * What the shop pages need, in one D1 round trip: the packages (or one) in the brand's currency, the
 * methods of the payment country for that currency (priced on the cheapest or the chosen package), the countries with their own method list,
 * and optionally one of the member's payments with whether it was their first purchase.
 */
export async function shopData(
  context: Ctx,
  o: {
    /** The brand's account (paymentTarget): its activated methods. */
    target: PaymentTarget;
    country: string;
    /** The brand whose prices apply (decision 227), and its currency. */
    brandId: number;
    currency: string;
    packageId?: string;
    userId: string;
    paymentId?: string | null;
    discount?: D1PreparedStatement | null;
  },
) {
  const db = context.env.DB;
  const stmts = [
    packagesStatement(db, { id: o.brandId, currency: o.currency }, o.packageId),
    methodRowsStatement(db, o.country),
    // oxlint-disable-next-line no-restricted-properties -- goes into shopData's raw batch beside shop's packagesStatement and discounts' codeLookupStatement
    db.prepare("SELECT DISTINCT country FROM payment_methods WHERE country <> '*' ORDER BY country"),
    // The discount code the prices use (discounts.server.ts codeLookupStatement), read in the same round trip.
    // oxlint-disable-next-line no-restricted-properties -- placeholder in shopData's raw batch where no discount code is read
    o.discount ?? db.prepare("SELECT NULL AS none WHERE 0"),
    directDebitBlockStatement(db, o.userId),
  ];
  if (o.paymentId) stmts.push(...ownPaymentStatements(db, o.userId, o.paymentId));
  const [pkgs, methodRows, countryRows, discountRows, blockRows, one, earlier] = await db.batch(stmts);
  const directDebitBlocked = !!(blockRows!.results[0] as { blocked: number } | undefined)?.blocked;
  const packages = pkgs!.results as (PackageRow & { tier: Tier; one_time?: number })[];
  const priced = packages[0];
  const offered = priced
    ? await offeredMethods(context, o.target, methodRows!.results as MethodRow[], o.country, {
        cents: priced.price_cents,
        currency: priced.currency,
      })
    : [];
  const methods = directDebitBlocked ? withoutDirectDebit(offered) : offered;
  const row = (one?.results[0] as PaymentRow | undefined) ?? null;
  return {
    packages,
    methods,
    countries: (countryRows!.results as { country: string }[]).map((r) => r.country),
    payment: row ? { row, firstPurchase: (earlier!.results[0] as { n: number }).n === 0 } : null,
    discount: (discountRows!.results[0] as CodeLookup | undefined) ?? null,
    /** Direct debit would be offered here but finance blocked it for the member (decision 228): the page says why. */
    directDebitBlocked: directDebitBlocked && offered.some((m) => m.providerMethod === "directdebit"),
  };
}

/** The payment-country choices, named in the page language (the member's own country always among them). */
export function countryOptions(lng: Language, codes: string[], current: string) {
  const names = new Intl.DisplayNames([lng], { type: "region" });
  return [...new Set([...codes, current])]
    .filter((c) => c !== "XX")
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, lng));
}
