/**
 * Money: checkout, the webhook, repeat orders and refunds (decision 090). The provider (Mollie or the
 * local sandbox, app/lib/payments/) is the only source of truth for a payment's status: the webhook
 * re-fetches the payment by id and applies the new status once, guarded on the previous status, in
 * one D1 batch with paid_user and the wallet outbox row of its credits, which is then applied to the
 * member's wallet once by its key (decision 189; retried by the queue and the cron until applied).
 * The return page only reads.
 * Pure rules live in ./payment-rules.ts.
 */
import { countEvent } from "~/lib/metrics.server";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { nowS } from "~/lib/dates";
import { randomId } from "~/lib/password";
import { paymentProvider, paymentProviderName, type PaymentTarget } from "~/lib/payments/index.server";
import { accountOf } from "~/lib/payments/account";
import {
  PaymentProviderError,
  type Money,
  type PaymentProvider,
  type ProviderPayment,
  type SequenceType,
} from "~/lib/payments/provider";
import { readCookie } from "~/lib/cookies.server";
import { hmacHex } from "~/lib/hmac.server";
import { getDb, schema, toStatement } from "../../db/client";
import {
  and,
  desc,
  eq,
  getTableColumns,
  gte,
  inArray,
  isNotNull,
  isNull,
  lt,
  notInArray,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import { getBrandById, type BrandWithCompany } from "./brand.server";
import { walletStatement } from "../wallet/wallet.server";
import { handleWalletCheck, outboxRow, outboxStatement, settleWallet, type OutboxEnv } from "../wallet/outbox.server";
import { claimGuardSql, redemptionStatement, refusedDiscountOf, type CodeLookup } from "./discounts.server";
import { logError, logWarning } from "~/lib/log.server";
import { auditAfterChange, type Actor } from "./admin/audit.server";
import { oneTimeGuardSql, oneTimeUsed } from "./offers.server";
import {
  acceptsCurrency,
  canMove,
  refundCanMove,
  refundReturnsCredits,
  paymentState,
  VAT_RATES_BP,
  vatNumberFor,
  vatOf,
  refundCents,
  sequenceTypeFor,
  statusFromProvider,
  unusedCredits,
  withinRefundDays,
  chargedBackCents,
  creditsForRefund,
  isBankReasonCode,
  localeFor,
  INFERRED_FAILURE,
  DIRECT_DEBIT_METHOD,
  DIRECT_DEBIT_FIRST_METHODS,
  providerOverrides,
  disagreement,
  type PaymentCheck,
  type PaymentStatus,
  type PaymentView,
  type RefundStatus,
} from "./payment-rules";
import { dateLocale, formatMoney, packagesStatement, type PriceBrand } from "./shop.server";
import type { Language, PREMIUM_TIERS } from "~/lib/constants";

export type PaymentRow = typeof schema.payments.$inferSelect;
type Ctx = AppLoadContext;

/**
 * Every schema column of payments under its field name, for the raw batches this model still shares with
 * statements of other models (toStatement): D1 answers raw rows keyed by the selected names.
 */
const ROW_COLUMNS = Object.fromEntries(
  Object.entries(getTableColumns(schema.payments)).map(([k, c]) => [k, sql`${c}`.as(k)]),
);

/** One payments row with every schema column (the builder's select, so a new column is never missing), or null. */
function paymentWhere(d1: D1Database, where: SQL | undefined): Promise<PaymentRow | null> {
  return getDb(d1)
    .select()
    .from(schema.payments)
    .where(where)
    .get()
    .then((row) => row ?? null);
}
const P = schema.payments;

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
const directDebitBlockStatement = (db: D1Database, userId: string) =>
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
 * What Mollie takes per method beside the payment (its method-specific parameters): PayPal is told the
 * goods are digital (credits; it decides PayPal's seller protection), paysafecard gets who pays as a
 * keyed hash of the member (its limits work per customer; Mollie would otherwise hash the IP address).
 */
async function methodParameters(env: Ctx["env"], providerMethod: string, userId: string) {
  if (providerMethod === "paypal") return { digitalGoods: true };
  if (providerMethod === "paysafecard")
    return { customerReference: (await hmacHex(env.SESSION_SECRET, `paysafecard:${userId}`)).slice(0, 32) };
  return {};
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

// ─── Checkout ───

type PackageRow = { id: string; credits: number; price_cents: number; currency: string };
type Tier = (typeof PREMIUM_TIERS)[number];

/** A package as sold on a brand in a currency (packagesStatement's resolved price): null when it is not sold there. */
export async function packageRow(context: Ctx, id: string, brand: PriceBrand): Promise<PackageRow | null> {
  return packagesStatement(context.env.DB, brand, id).first<PackageRow>();
}

/**
 * The provider customer of a member in one account (made once, kept in payment_customers with its
 * account): a customer lives in its company's Mollie organisation and is never used with another's
 * key. One made in another account (the brand moved to another company) is replaced by a new one here.
 */
async function customerOf(
  context: Ctx,
  provider: PaymentProvider,
  account: string,
  member: { id: string; name: string; email: string },
): Promise<string> {
  const db = context.env.DB;
  const { paymentCustomers: c } = schema;
  const mine = and(eq(c.userId, member.id), eq(c.provider, provider.name));
  const stored = () => getDb(db).select({ customerId: c.customerId, account: c.account }).from(c).where(mine).get();
  const row = await stored();
  if (row?.account === account) return row.customerId;
  const customer = await provider.createCustomer({
    name: member.name,
    email: member.email,
    metadata: { userId: member.id },
    // Idempotency keys are per account at Mollie (and in the sandbox): one customer per member there.
    idempotencyKey: `customer-${member.id}`,
  });
  await getDb(db)
    .insert(c)
    .values({ userId: member.id, provider: provider.name, account, customerId: customer.id })
    .onConflictDoUpdate({
      target: [c.userId, c.provider],
      set: { account, customerId: customer.id },
      // Guarded: only the other account's row is replaced; a racing request's row of this account stays.
      setWhere: sql`${c.account} <> ${account}`,
    });
  const now = await stored();
  return now?.account === account ? now.customerId : customer.id;
}

/** The customer id a member has in this account (made if needed): the direct debit mandate needs it. */
export async function ensureCustomer(
  context: Ctx,
  target: PaymentTarget,
  member: { id: string; name: string; email: string },
): Promise<string> {
  return customerOf(context, paymentProvider(context, target), target.account, member);
}

// ─── Whose account (decision 206) ───

/** The account a brand's payments are made in: its company's, with the brand's website profile there. */
export function paymentTarget(brand: Pick<BrandWithCompany, "mollieProfileId" | "company">): PaymentTarget {
  return { account: accountOf(brand.company), profileId: brand.mollieProfileId };
}

/**
 * The account of one of our payments: the one it was made in (stored on it), else (made before
 * accounts were stored) its brand's company's. Always from our row, never from a request.
 */
async function targetOfRow(
  env: Ctx["env"],
  row: Pick<PaymentRow, "brandId" | "providerAccount">,
): Promise<PaymentTarget> {
  const brand = await getBrandById(env, row.brandId);
  if (!brand) throw new Error(`payments: the brand ${row.brandId} of a payment is gone`);
  return { account: row.providerAccount ?? accountOf(brand.company), profileId: brand.mollieProfileId };
}

/** The provider in a payment's own account. */
async function providerOfRow(context: Ctx, row: Pick<PaymentRow, "brandId" | "providerAccount">) {
  return paymentProvider(context, await targetOfRow(context.env, row));
}

// ─── One charge per click ───

/**
 * The pay forms' one-time token (a fresh one each time the page renders, one per button): the payment
 * it starts stores it (unique) and the provider gets it as the Idempotency-Key, so the same click
 * arriving twice (a double click, a replayed post, a retried request) finds that payment instead of
 * charging again. Decision 115.
 */
const INTENT_KEY = /^[A-Za-z0-9_-]{16,64}(?:\.[a-z_]{1,32})?$/;
export const newIntentKey = () => randomId();
export function intentKeyOf(value: FormDataEntryValue | null): string | null {
  return typeof value === "string" && INTENT_KEY.test(value) ? value : null;
}

/** The member's payment started by this click, if any (another member's key is not theirs: null). */
async function paymentOfIntent(db: D1Database, userId: string, intentKey: string): Promise<PaymentRow | null> {
  return paymentWhere(db, and(eq(P.intentKey, intentKey), eq(P.userId, userId)));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Where a repeated click goes: the hosted checkout of the payment the first one started, once that
 * request has it (the browser follows the last answer of a double click, so it must reach the checkout
 * too), else the payment's own page, which shows how it stands.
 */
async function checkoutOfIntent(db: D1Database, row: PaymentRow, waits = 20): Promise<string> {
  let now: PaymentRow | null = row;
  // Waits while the first request is still with the provider (open, no provider id yet).
  for (let i = 0; now && now.status === "open" && !now.providerRef && !now.failureReason && i < waits; i++) {
    await sleep(250);
    now = await paymentWhere(db, eq(P.id, row.id));
  }
  return now?.status === "open" && now.checkoutUrl
    ? now.checkoutUrl
    : `/credits/${row.packageId}/${row.method}?payment=${row.id}`;
}

export type CheckoutMember = { id: string; name: string; email: string; language: string };
export type CheckoutResult =
  | { ok: true; paymentId: string; redirectTo: string }
  | { ok: false; error: "method" | "provider" | "discount" | "once" };

/** A discount the Offers work applies: what is charged instead of the package price, and the code used. */
export type CheckoutDiscount = { codeId: number; amountCents: number };

/**
 * Starts a purchase of package `pkg` with `method`: stores the payment (open), asks the provider for
 * it and answers where to send the member (the provider's hosted checkout). The click's key is the
 * idempotency key and unique on the payment, so a repeated click or a retried request never creates
 * a second payment, here or at the provider.
 */
export async function startCheckout(
  context: Ctx,
  o: {
    brand: BrandWithCompany;
    member: CheckoutMember;
    pkg: PackageRow;
    method: string;
    country: string;
    origin: string;
    discount?: CheckoutDiscount;
    /** The click's one-time token (intentKeyOf): the same click twice is one payment and one provider call. */
    intentKey: string;
    /** A bank's first payment that sets up SEPA direct debit (directDebitFirstMethod), not a plain purchase. */
    directDebitFirst?: boolean;
  },
): Promise<CheckoutResult> {
  const amountCents = o.discount ? o.discount.amountCents : o.pkg.price_cents;
  if (!Number.isInteger(amountCents) || amountCents < 1) return { ok: false, error: "provider" };
  const target = paymentTarget(o.brand);
  const amount = { cents: amountCents, currency: o.pkg.currency };
  const blocked = !!(await directDebitBlockStatement(context.env.DB, o.member.id).first<{ blocked: number }>())
    ?.blocked;
  const option = o.directDebitFirst
    ? await directDebitFirstMethod(context, target, o.country, amount)
    : (blocked ? withoutDirectDebit : (m: MethodOption[]) => m)(
        await methodsFor(context, target, o.country, amount),
      ).find((m) => m.method === o.method);
  if (!option || option.method !== o.method) return { ok: false, error: "method" };
  if (option.providerMethod === "directdebit")
    return { ok: true, paymentId: "", redirectTo: `/directdebit?package=${o.pkg.id}` };

  const provider = paymentProvider(context, target);
  const sequenceType = option.sequenceType;
  const id = randomId();
  // A once-per-member code rides on one live payment at a time (claimGuardSql): 20 racing checkouts, one discount.
  // One payment per click: the click's key is unique, so a repeated click inserts nothing and finds the first one's payment.
  // oxlint-disable-next-line no-restricted-properties -- guards: inserts only while the discount code is unclaimed and the one-time package unused; ON CONFLICT (intent_key) makes a repeated click insert nothing
  const inserted = await context.env.DB.prepare(
    `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, sequence_type,
       payment_country, discount_code_id, original_amount_cents, intent_key, provider_account)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'open', ?10, ?11, ?12, ?13, ?14, ?15 WHERE ${claimGuardSql("?12", "?2")} AND ${oneTimeGuardSql("?4", "?2")}
     ON CONFLICT (intent_key) DO NOTHING`,
  )
    .bind(
      id,
      o.member.id,
      o.brand.id,
      o.pkg.id,
      o.pkg.credits,
      amountCents,
      o.pkg.currency,
      o.method,
      provider.name,
      sequenceType,
      o.country,
      o.discount?.codeId ?? null,
      o.discount ? o.pkg.price_cents : null,
      o.intentKey,
      target.account,
    )
    .run();
  if (inserted.meta.changes !== 1) {
    const same = await paymentOfIntent(context.env.DB, o.member.id, o.intentKey);
    if (same) return { ok: true, paymentId: same.id, redirectTo: await checkoutOfIntent(context.env.DB, same) };
    return { ok: false, error: (await oneTimeUsed(context.env.DB, o.member.id, o.pkg.id)) ? "once" : "discount" };
  }
  try {
    // Only the click that stored the payment talks to the provider (the customer too).
    const customerId = sequenceType === "first" ? await customerOf(context, provider, target.account, o.member) : null;
    const created = await provider.createPayment({
      amount: { cents: amountCents, currency: o.pkg.currency },
      description: `${o.brand.name}: ${o.pkg.credits} credits (${id})`,
      method: option.providerMethod,
      redirectUrl: `${o.origin}/credits/${o.pkg.id}/${o.method}?payment=${id}`,
      webhookUrl: `${o.origin}${WEBHOOK_PATH}`,
      metadata: { paymentId: id },
      idempotencyKey: o.intentKey,
      sequenceType,
      customerId: customerId ?? undefined,
      // Language and payment country: Mollie picks the bank transfer's target account by it (nl_BE, de_AT, …).
      locale: localeFor(o.member.language, o.country),
      ...(await methodParameters(context.env, option.providerMethod, o.member.id)),
    });
    await getDb(context.env.DB)
      .update(P)
      .set({ providerRef: created.id, checkoutUrl: created.checkoutUrl, customerId, updatedAt: nowS() })
      .where(eq(P.id, id));
    if (!created.checkoutUrl) return { ok: false, error: "provider" };
    return { ok: true, paymentId: id, redirectTo: created.checkoutUrl };
  } catch (e) {
    if (!(e instanceof PaymentProviderError)) throw e;
    logError("payments.create_failed", e, { status: e.status, title: e.title, field: e.field });
    // oxlint-disable-next-line no-restricted-properties -- guards: open → failed only from open (a webhook may have moved the payment on)
    await context.env.DB.prepare(
      "UPDATE payments SET status = 'failed', failure_reason = ?2, updated_at = ?3 WHERE id = ?1 AND status = 'open'",
    )
      .bind(id, `${INFERRED_FAILURE} ${e.title}`, nowS())
      .run();
    return { ok: false, error: "provider" };
  }
}

// ─── The webhook ───

export const WEBHOOK_PATH = "/api/payments/webhook";

/**
 * The statements that complete a payment, as one batch: the status change guarded on the previous
 * status, then (only if it changed a row) paid_user and the outbox row of the credits (wallet key
 * payment:<id>; drainOutbox applies it), then
 * `extra` (e.g. the Offers work's discount redemption; each extra statement must guard itself with
 * `changes() = 1` or an equivalent condition, as it runs only after the ledger insert).
 */
export function completionStatements(
  db: D1Database,
  row: Pick<PaymentRow, "id" | "userId" | "credits" | "status">,
  paid: { providerRef: string; method: string | null; mandateId: string | null; now?: number },
  extra: D1PreparedStatement[] = [],
): D1PreparedStatement[] {
  const now = paid.now ?? nowS();
  return [
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: status → paid only from the status read (WHERE status = ?2); grant, ledger row and redemption follow in the same batch on changes() = 1
      .prepare(
        `UPDATE payments SET status = 'paid', paid_at = ?3, updated_at = ?3, provider_ref = COALESCE(provider_ref, ?4),
           mandate_id = COALESCE(?5, mandate_id), checkout_url = NULL WHERE id = ?1 AND status = ?2`,
      )
      .bind(row.id, row.status, now, paid.providerRef, paid.mandateId),
    // oxlint-disable-next-line no-restricted-properties -- guards: the first purchase makes the member premium only after the guarded status flip (changes() = 1); the outbox row follows on changes() = 1
    db.prepare("UPDATE users SET paid_user = 1 WHERE id = ?1 AND changes() = 1").bind(row.userId),
    outboxStatement(
      db,
      {
        userId: row.userId,
        kind: "apply",
        key: `payment:${row.id}`,
        delta: row.credits,
        reason: "purchase",
        refId: row.id,
      },
      { afterChange: true, now },
    ),
    // The payment's once-per-member code is used up in the same transaction (a no-op without a code).
    redemptionStatement(db, row.id, now),
    ...extra,
  ];
}

/** Statements appended to a payment's completion batch (registered by other areas, e.g. discounts). */
export type CompletionExtras = (db: D1Database, row: PaymentRow) => D1PreparedStatement[];

/**
 * Applies what the provider says about a payment to our row, once. Returns the row as it is now, or
 * null when the payment is not ours (unknown id, other provider, or an amount that does not match).
 */
export async function applyProviderPayment(
  context: Ctx,
  pp: ProviderPayment,
  extras?: CompletionExtras,
): Promise<PaymentRow | null> {
  const db = context.env.DB;
  const id = pp.metadata.paymentId;
  if (!id) return null;
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await paymentWhere(db, eq(P.id, id));
    if (!row || row.provider !== paymentProviderName(context.env)) return null;
    if (
      (row.providerRef && row.providerRef !== pp.id) ||
      pp.amount.cents !== row.amountCents ||
      pp.amount.currency !== row.currency
    ) {
      logError("payments.provider_mismatch", undefined, { providerRef: pp.id, paymentId: id });
      return null;
    }
    if (attempt === 0) await keepEvidence(db, row, pp);
    const to = statusFromProvider(pp.status);
    const from = row.status as PaymentStatus;
    // The provider's paid wins over a failure we only inferred: the member paid, so they get the credits (once).
    const overrides = providerOverrides(from, row.failureReason, to);
    if (!canMove(from, to) && !overrides) {
      const differs = disagreement(from, to);
      if (differs) await alertFinance(db, row, pp.id, differs);
      // Nothing new about the payment itself: what may have changed since is its refunds or a chargeback.
      return (await applyAfterTheFact(context, row, pp)) ?? row;
    }
    const now = nowS();
    let changed: number;
    if (to === "paid") {
      const stmts = completionStatements(
        db,
        row,
        { providerRef: pp.id, method: pp.method, mandateId: pp.mandateId, now },
        extras?.(db, row),
      );
      changed = (await db.batch(stmts))[0]!.meta.changes;
      if (changed === 1) await settleWallet(context.env, row.userId);
      if (changed === 1 && row.discountCodeId !== null) await logRefusedDiscount(db, row);
    } else {
      const r = await db
        // oxlint-disable-next-line no-restricted-properties -- guards: status moves only from the status read (WHERE status = ?2)
        .prepare(
          `UPDATE payments SET status = ?3, provider_ref = COALESCE(provider_ref, ?4), failure_reason = ?5, bank_reason = ?7, updated_at = ?6,
             checkout_url = CASE WHEN ?3 IN ('failed', 'canceled', 'expired') THEN NULL ELSE checkout_url END
           WHERE id = ?1 AND status = ?2`,
        )
        .bind(row.id, row.status, to, pp.id, pp.failureReason, now, pp.bankReason?.slice(0, 500) ?? null)
        .run();
      changed = r.meta.changes;
    }
    // 0 changes: another webhook moved it first; read again and see whether anything is left to do.
    if (changed === 1) {
      if (overrides)
        await alertFinance(
          db,
          row,
          pp.id,
          `provider says paid after we marked it failed (${row.failureReason}): credited`,
        );
      // Counted once: only the webhook whose guarded update moved the row counts it.
      if (to === "paid") countEvent(context.env, "payment", { brandId: row.brandId, cents: row.amountCents });
      return { ...row, status: to };
    }
  }
  return paymentWhere(db, eq(P.id, id));
}

/**
 * The provider's evidence kept with the payment, written only when it changed: the payer's country as
 * the provider saw it (EU VAT evidence; the console flags one that differs from the payment country)
 * and what it settles to us.
 */
async function keepEvidence(db: D1Database, row: PaymentRow, pp: ProviderPayment) {
  const country = pp.countryCode ?? row.providerCountry;
  const settlement = pp.settlement ?? null;
  const cents = settlement?.cents ?? row.settlementCents;
  const currency = settlement?.currency ?? row.settlementCurrency;
  if (country === row.providerCountry && cents === row.settlementCents && currency === row.settlementCurrency) return;
  await getDb(db)
    .update(P)
    .set({ providerCountry: country, settlementCents: cents, settlementCurrency: currency })
    .where(eq(P.id, row.id));
}

/**
 * Finance is told that the provider's record and ours disagree: the payment row carries what (the
 * console's payments list and page show it) and a log line says it once (guarded: the same words
 * again change nothing, so a replayed webhook does not repeat the alert).
 */
async function alertFinance(
  db: D1Database,
  row: Pick<PaymentRow, "id" | "userId" | "brandId">,
  providerRef: string,
  what: string,
) {
  const changed = await getDb(db)
    .update(P)
    // A new disagreement is open again, whatever finance noted about the last one.
    .set({
      providerAlert: what.slice(0, 500),
      providerAlertAt: nowS(),
      providerAlertDealtAt: null,
      providerAlertDealtBy: null,
      providerAlertNote: null,
    })
    .where(and(eq(P.id, row.id), sql`${P.providerAlert} IS NOT ${what.slice(0, 500)}`))
    .run();
  if (changed.meta.changes === 1)
    logWarning("payments.provider_disagrees", {
      paymentId: row.id,
      providerRef,
      memberId: row.userId,
      brandId: row.brandId,
      what,
    });
}

/**
 * A payment completed with a once-per-member discount the member no longer had (the other built-in
 * discount was used meanwhile): it was credited in full, the member paid what they were shown; the
 * case is logged for the operators (the payment without a redemption row is the lasting record).
 */
async function logRefusedDiscount(db: D1Database, row: PaymentRow) {
  const code = await refusedDiscountOf(db, row.id);
  if (code)
    logWarning("payments.discount_not_allowed", {
      memberId: row.userId,
      paymentId: row.id,
      code,
      amountCents: row.amountCents,
      originalCents: row.originalAmountCents,
    });
}

// ─── After the fact: refund status changes and chargebacks (the webhook is called for the payment) ───

/**
 * What the provider now says about a paid payment's refunds and chargebacks, applied once each:
 * a refund's status only moves forward, guarded on its previous status, and a refund that failed
 * (or was canceled) gives its credits back in the same batch; a chargeback is applied by
 * applyChargeback. Returns the row again if it changed.
 */
async function applyAfterTheFact(context: Ctx, row: PaymentRow, pp: ProviderPayment): Promise<PaymentRow | null> {
  if (row.status !== "paid" && row.status !== "charged_back") return null;
  const db = context.env.DB;
  if (pp.refunds.length > 0) {
    const R = schema.refunds;
    const ours = await getDb(db)
      .select({ id: R.id, provider_ref: R.providerRef, status: R.status, credits: R.credits, cents: R.amountCents })
      .from(R)
      .where(eq(R.paymentId, row.id));
    for (const theirs of pp.refunds) {
      // Ours by the provider's id, or (created but its id not yet stored) by the id in its metadata.
      const mine =
        ours.find((r) => r.provider_ref === theirs.id) ??
        ours.find((r) => !r.provider_ref && r.id === theirs.metadata.refundId);
      if (!mine || !refundCanMove(mine.status, theirs.status)) continue;
      const givesBack = refundReturnsCredits(theirs.status);
      const move = (paymentStatus: "paid" | "charged_back" | null) =>
        db
          // oxlint-disable-next-line no-restricted-properties -- guards: refund status moves only from the status read and, when it gives credits back, only while the payment is in ?5; grant and ledger row in the same batch
          .prepare(
            `UPDATE refunds SET status = ?3, provider_ref = COALESCE(provider_ref, ?4),
               refunded_at = CASE WHEN ?3 = 'refunded' THEN COALESCE(refunded_at, unixepoch()) ELSE refunded_at END
             WHERE id = ?1 AND status = ?2
               AND (?5 IS NULL OR EXISTS (SELECT 1 FROM payments p WHERE p.id = refunds.payment_id AND p.status = ?5))`,
          )
          .bind(mine.id, mine.status, theirs.status, theirs.id, paymentStatus);
      if (!givesBack) {
        const moved = await move(null).run();
        // Counted once: only the check whose guarded update moved the refund to refunded counts it.
        if (moved.meta.changes === 1 && theirs.status === "refunded")
          countEvent(context.env, "refund", { brandId: row.brandId, cents: mine.cents });
        continue;
      }
      // A failed refund gives the credits back, unless the payment was charged back (the bank returned the money).
      const [moved] = await db.batch([move("paid"), giveBackStatement(db, row.userId, mine.id, row.id)]);
      if (moved!.meta.changes === 0) await move("charged_back").run();
      else await settleWallet(context.env, row.userId);
    }
  }
  const held = chargedBackCents(pp);
  if (row.status === "paid" && held > 0)
    return applyChargeback(context, row, { cents: held, currency: pp.amount.currency });
  // Every chargeback reversed (Mollie: reversedAt): the bank gave the money back, so the credits come back.
  if (row.status === "charged_back" && pp.chargebacks.length > 0 && held === 0) return applyReversal(context, row);
  return null;
}

/**
 * A chargeback the bank reversed: one batch, once (guarded charged_back → paid): the payment is paid
 * again and (outbox, kind reverse) the wallet gives back exactly what the payment's latest
 * chargeback took (so a purchase whose credits were spent gets back nothing), with its own ledger row.
 */
async function applyReversal(context: Ctx, row: PaymentRow): Promise<PaymentRow | null> {
  const db = context.env.DB;
  const now = nowS();
  const [update] = await db.batch([
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: charged_back → paid only from charged_back; ledger row and balance follow in the same batch on changes() = 1
      .prepare(
        `UPDATE payments SET status = 'paid', charged_back_cents = 0, chargeback_unrecovered_credits = NULL, updated_at = ?3
         WHERE id = ?1 AND status = ?2`,
      )
      .bind(row.id, "charged_back", now),
    outboxStatement(
      db,
      {
        userId: row.userId,
        kind: "reverse",
        key: `chargeback_reversed:${row.id}`,
        delta: 0,
        reason: "chargeback_reversed",
        refId: row.id,
      },
      { afterChange: true, now },
    ),
  ]);
  if (update!.meta.changes !== 1) return null;
  await settleWallet(context.env, row.userId);
  return paymentWhere(db, eq(P.id, row.id));
}

/** The credits of a purchase not refunded (payment ?6): what a chargeback takes back. */
const UNREFUNDED_CREDITS_SQL = `SELECT p.credits - COALESCE((SELECT SUM(r.credits) FROM refunds r
    WHERE r.payment_id = p.id AND r.status NOT IN ('failed', 'canceled')), 0) FROM payments p WHERE p.id = ?6`;

/**
 * A chargeback: the bank took the money back, so the purchase's credits go too. One batch, once:
 * the payment paid → charged_back (guarded) and the outbox row of the clawback (clamped: never below
 * zero); applying it notes how many of the credits were already spent (could not be taken back).
 * Key chargeback:<payment>:<n>, n counting the payment's chargebacks (one may follow a reversal).
 */
async function applyChargeback(context: Ctx, row: PaymentRow, charged: Money): Promise<PaymentRow | null> {
  const db = context.env.DB;
  const now = nowS();
  const [update] = await db.batch([
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: paid → charged_back only from paid; clawback and ledger row in the same batch
      .prepare(
        `UPDATE payments SET status = 'charged_back', charged_back_cents = ?3, updated_at = ?4
         WHERE id = ?1 AND status = ?2`,
      )
      .bind(row.id, "paid", charged.cents, now),
    outboxStatement(
      db,
      {
        userId: row.userId,
        kind: "apply",
        key: {
          sql: "SELECT 'chargeback:' || ?6 || ':' || (COUNT(*) + 1) FROM wallet_outbox WHERE ref_id = ?6 AND reason = 'chargeback'",
        },
        delta: { sql: `-(${UNREFUNDED_CREDITS_SQL})` },
        reason: "chargeback",
        refId: row.id,
        clamp: true,
      },
      { afterChange: true, now },
    ),
    // No repeat order or direct debit for the member until support clears the hold (the console's member page).
    holdStatement(db, row.userId, row.id),
  ]);
  if (update!.meta.changes !== 1) return null;
  await settleWallet(context.env, row.userId);
  return paymentWhere(db, eq(P.id, row.id));
}

/**
 * The member's payments hold after a chargeback (payment_holds), in the chargeback's batch: only when
 * the payment is charged back now (the guarded change before it), once per member.
 */
function holdStatement(db: D1Database, userId: string, paymentId: string) {
  return (
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: only after the charged_back change of this batch; one hold per member (ON CONFLICT)
      .prepare(
        `INSERT INTO payment_holds (user_id, payment_id, created_at)
         SELECT ?1, ?2, unixepoch() WHERE EXISTS (SELECT 1 FROM payments WHERE id = ?2 AND status = 'charged_back')
         ON CONFLICT (user_id) DO NOTHING`,
      )
      .bind(userId, paymentId)
  );
}

/** SQL: the member ?N has no payments hold (a chargeback support has not cleared). */
export const noHoldSql = (userParam: string) => `NOT EXISTS (SELECT 1 FROM payment_holds WHERE user_id = ${userParam})`;

/** The member's payments hold, if any: the charged-back payment and since when. */
export async function paymentHoldOf(d1: D1Database, userId: string) {
  const H = schema.paymentHolds;
  return (await getDb(d1).select().from(H).where(eq(H.userId, userId)).get()) ?? null;
}

const PROVIDER_ID = /^[A-Za-z0-9_]{1,100}$/;

/**
 * A webhook call: trusts nothing but the id, re-fetches the payment from the provider and applies it.
 * The account it is asked in is our payment's (decision 206), never anything the request says: the
 * payment that has this provider id, or, for an id we never stored (the create's answer was lost),
 * each account with such payments of the last SWEEP_WINDOW_S, applied only to a payment of the account
 * that knows it. Unknown ids change nothing (the route answers 200 as Mollie expects). Throws only
 * when the provider cannot be reached, so the route answers 5xx and the provider calls again later.
 */
export async function handleWebhook(context: Ctx, providerId: unknown, extras?: CompletionExtras): Promise<void> {
  if (typeof providerId !== "string" || !PROVIDER_ID.test(providerId)) return;
  const name = paymentProviderName(context.env);
  const known = await paymentWhere(context.env.DB, and(eq(P.provider, name), eq(P.providerRef, providerId)));
  const targets = new Map<string, PaymentTarget>();
  if (known) {
    const target = await targetOfRow(context.env, known);
    targets.set(target.account, target);
  } else {
    const unplaced = await getDb(context.env.DB)
      .selectDistinct({ brandId: P.brandId, providerAccount: P.providerAccount })
      .from(P)
      .where(and(eq(P.provider, name), isNull(P.providerRef), gte(P.createdAt, nowS() - SWEEP_WINDOW_S)));
    for (const row of unplaced) {
      const target = await targetOfRow(context.env, row);
      targets.set(target.account, target);
    }
  }
  for (const target of targets.values()) {
    let pp: ProviderPayment | null;
    try {
      pp = await paymentProvider(context, target).getPayment(providerId);
    } catch (e) {
      // An account without its key cannot be asked (production refuses its brands); another can.
      if (e instanceof PaymentProviderError) throw e;
      logError("payments.webhook_account_unusable", e, { account: target.account });
      continue;
    }
    if (!pp) continue;
    // Applied only to a payment of the account that answered: another company's payment is not its to change.
    const ours = pp.metadata.paymentId ? await paymentWhere(context.env.DB, eq(P.id, pp.metadata.paymentId)) : null;
    if (ours && (await targetOfRow(context.env, ours)).account === target.account)
      await applyProviderPayment(context, pp, extras);
    return;
  }
}

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
function ownPaymentStatements(db: D1Database, userId: string, id: string) {
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

/** The payment-country choices, named in the page language (the member's own country always among them). */
export function countryOptions(lng: Language, codes: string[], current: string) {
  const names = new Intl.DisplayNames([lng], { type: "region" });
  return [...new Set([...codes, current])]
    .filter((c) => c !== "XX")
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, lng));
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

// ─── Repeat order (recurring payment on a mandate) ───

export type RecurringResult =
  | { ok: true; payment: PaymentRow }
  | { ok: false; error: "none" | "provider" | "discount" | "mandate" | "hold" | "blocked" };

/**
 * Charges a package on a mandate without a redirect (repeat order; the direct debit form's first
 * order). The answer of the create call is the provider's own word, so it is applied at once like
 * a webhook; the webhook that follows changes nothing more.
 */
export async function chargeMandate(
  context: Ctx,
  o: {
    brand: BrandWithCompany;
    userId: string;
    pkg: PackageRow;
    method: string;
    customerId: string;
    mandateId: string;
    origin: string;
    country: string | null;
    /** Where the sandbox's page sends the browser back to (the direct debit form's pending screen); default the repeat order. */
    returnPath?: (paymentId: string) => string;
    /** The direct debit form's first order with the member's active discount (recorded and redeemed as at the card checkout). */
    discount?: CheckoutDiscount;
    /** The click (the repeat order form's token, the direct debit request): charged once however often it arrives. */
    intentKey: string;
  },
): Promise<RecurringResult> {
  const target = paymentTarget(o.brand);
  const provider = paymentProvider(context, target);
  const id = randomId();
  const amountCents = o.discount ? o.discount.amountCents : o.pkg.price_cents;
  // A once-per-member code rides on one live payment at a time (claimGuardSql), as at the card checkout;
  // the click's unique key makes a repeated click insert nothing (and so charge nothing).
  // oxlint-disable-next-line no-restricted-properties -- guards: inserts only while the discount code is unclaimed; ON CONFLICT (intent_key) makes a repeated click charge nothing
  const inserted = await context.env.DB.prepare(
    `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, sequence_type,
       customer_id, mandate_id, payment_country, discount_code_id, original_amount_cents, intent_key, provider_account)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'open', 'recurring', ?10, ?11, ?12, ?13, ?14, ?15, ?16
     WHERE ${claimGuardSql("?13", "?2")} AND ${noHoldSql("?2")}
       AND (?8 <> '${DIRECT_DEBIT_METHOD}' OR (SELECT directdebit_blocked FROM users WHERE id = ?2) = 0)
     ON CONFLICT (intent_key) DO NOTHING`,
  )
    .bind(
      id,
      o.userId,
      o.brand.id,
      o.pkg.id,
      o.pkg.credits,
      amountCents,
      o.pkg.currency,
      o.method,
      provider.name,
      o.customerId,
      o.mandateId,
      o.country,
      o.discount?.codeId ?? null,
      o.discount ? o.pkg.price_cents : null,
      o.intentKey,
      target.account,
    )
    .run();
  if (inserted.meta.changes !== 1) {
    const same = await paymentOfIntent(context.env.DB, o.userId, o.intentKey);
    if (same) return { ok: true, payment: same };
    if (await paymentHoldOf(context.env.DB, o.userId)) return { ok: false, error: "hold" };
    // A SEPA mandate of a member finance blocked for direct debit is not charged (decision 228).
    if (
      o.method === DIRECT_DEBIT_METHOD &&
      (await directDebitBlockStatement(context.env.DB, o.userId).first<{ blocked: number }>())?.blocked
    )
      return { ok: false, error: "blocked" };
    return { ok: false, error: "discount" };
  }
  try {
    const created = await provider.createPayment({
      amount: { cents: amountCents, currency: o.pkg.currency },
      description: `${o.brand.name}: ${o.pkg.credits} credits (${id})`,
      redirectUrl: `${o.origin}${o.returnPath ? o.returnPath(id) : `/credits/repeat-order?payment=${id}`}`,
      webhookUrl: `${o.origin}${WEBHOOK_PATH}`,
      metadata: { paymentId: id },
      idempotencyKey: o.intentKey,
      sequenceType: "recurring",
      customerId: o.customerId,
      mandateId: o.mandateId,
    });
    // COALESCE: a webhook that came first may have stored the id already.
    await getDb(context.env.DB)
      .update(P)
      .set({ providerRef: sql`COALESCE(${P.providerRef}, ${created.id})`, updatedAt: nowS() })
      .where(eq(P.id, id));
    const payment = (await applyProviderPayment(context, created)) ?? (await ownPayment(context, o.userId, id))!;
    return { ok: true, payment };
  } catch (e) {
    if (!(e instanceof PaymentProviderError)) throw e;
    if (e.unknownOutcome) {
      // The provider may have charged the mandate (Mollie: a timed-out request may still be executed):
      // not failed, not charged again; its webhook or a queued look at the customer's payments decides.
      logError("payments.recurring_unknown", e, { status: e.status, title: e.title });
      // oxlint-disable-next-line no-restricted-properties -- guards: open → checking only from open
      await context.env.DB.prepare(
        "UPDATE payments SET status = 'checking', updated_at = ?2 WHERE id = ?1 AND status = 'open'",
      )
        .bind(id, nowS())
        .run();
      await enqueueCheck(context, { kind: "payment", paymentId: id });
    } else {
      logError("payments.recurring_refused", e, { status: e.status, title: e.title });
      // oxlint-disable-next-line no-restricted-properties -- guards: open → failed only from open
      await context.env.DB.prepare(
        "UPDATE payments SET status = 'failed', failure_reason = ?2, updated_at = ?3 WHERE id = ?1 AND status = 'open'",
      )
        .bind(id, `${INFERRED_FAILURE} ${e.title}`, nowS())
        .run();
    }
    return { ok: true, payment: (await ownPayment(context, o.userId, id))! };
  }
}

/** Repeat order: the last package bought with a mandate, again, on that mandate. */
export async function repeatOrder(
  context: Ctx,
  o: { brand: BrandWithCompany; userId: string; origin: string; intentKey: string },
): Promise<RecurringResult> {
  // After a chargeback nothing is charged on a mandate until support clears the hold.
  if (await paymentHoldOf(context.env.DB, o.userId)) return { ok: false, error: "hold" };
  const target = paymentTarget(o.brand);
  const last = await lastMandateOrder(context, target, o.userId);
  if (!last || !last.customerId || !last.mandateId) return { ok: false, error: "none" };
  // The mandate as the provider knows it now: revoked, expired or never approved, it is not charged.
  let mandates;
  try {
    mandates = await paymentProvider(context, target).listMandates(last.customerId);
  } catch (e) {
    if (!(e instanceof PaymentProviderError)) throw e;
    return { ok: false, error: "provider" };
  }
  const mandate = mandates.find((m) => m.id === last.mandateId);
  if (mandate?.status !== "valid") return { ok: false, error: "mandate" };
  // The package at today's price in the currency of that order (a SEPA mandate collects euros only).
  const pkg = await packageRow(context, last.packageId, { id: o.brand.id, currency: last.currency });
  if (!pkg) return { ok: false, error: "none" };
  return chargeMandate(context, {
    brand: o.brand,
    userId: o.userId,
    pkg,
    // A bank's first payment (iDEAL, Bancontact, EPS) left a direct debit mandate: later orders are direct debits.
    method: mandate.method === "directdebit" ? DIRECT_DEBIT_METHOD : last.method,
    customerId: last.customerId,
    mandateId: last.mandateId,
    origin: o.origin,
    country: last.paymentCountry,
    intentKey: o.intentKey,
  });
}

// ─── Refunds of unused credits ───

export type RefundQuote =
  | { ok: true; credits: number; amountCents: number; currency: string }
  | { ok: false; reason: "status" | "days" | "used" | "exists" | "provider" };

/**
 * What a refund of this payment would give back now: the credits of the purchase not yet spent
 * (spent oldest purchase first) pro rata of the amount, within the brand's refund_days, once.
 */
export async function refundQuote(
  context: Ctx,
  brand: Pick<BrandWithCompany, "refundDays">,
  row: PaymentRow,
): Promise<RefundQuote> {
  if (row.status !== "paid") return { ok: false, reason: "status" };
  if (!withinRefundDays(row.paidAt, brand.refundDays, nowS())) return { ok: false, reason: "days" };
  const unused = await unusedOrUnreachable(context.env, row);
  if (!unused) return { ok: false, reason: "provider" };
  const { existing, credits } = unused;
  if (existing) return { ok: false, reason: "exists" };
  const amountCents = refundCents(row.amountCents, row.credits, credits);
  if (credits < 1 || amountCents < 1) return { ok: false, reason: "used" };
  return { ok: true, credits, amountCents, currency: row.currency };
}

/**
 * unusedOfPurchase, or null when the member's wallet cannot be reached: the refund is then refused with
 * the translated "try again later" (reason `provider`), nothing changed, instead of a 500.
 */
async function unusedOrUnreachable(env: OutboxEnv, row: PaymentRow) {
  try {
    return await unusedOfPurchase(env, row);
  } catch (e) {
    logError("refund.wallet_unreachable", e, { paymentId: row.id });
    return null;
  }
}

/** How many of a purchase's credits are unused now (what a refund can still take back); null when the wallet cannot be reached. */
export async function unusedCreditsOf(env: OutboxEnv, row: PaymentRow): Promise<number | null> {
  return (await unusedOrUnreachable(env, row))?.credits ?? null;
}

/** Whether the payment has a live refund, and how many of its credits are unused (spent oldest purchase first). */
async function unusedOfPurchase(env: OutboxEnv, row: PaymentRow): Promise<{ existing: boolean; credits: number }> {
  const R = schema.refunds;
  const [existing, { rows: ledger, balance: credit }] = await Promise.all([
    getDb(env.DB)
      .select({ n: sql<number>`COUNT(*)` })
      .from(R)
      .where(and(eq(R.paymentId, row.id), notInArray(R.status, ["failed", "canceled"]))),
    // Every grant, and every refund (negative, ref_id = the payment refunded), from the wallet's ledger,
    // with the balance they lead to (one read: a spend between two reads would misquote the unused part).
    walletStatement(env, row.userId, { grantsOr: ["refund"], oldestFirst: true }),
  ]);
  // From this purchase's own row on.
  const first = ledger.findIndex((r) => r.reason === "purchase" && r.refId === row.id);
  const rows = (first < 0 ? [] : ledger.slice(first)).map((r) => ({ ref_id: r.refId, delta: r.delta }));
  const own = rows.filter((r) => r.ref_id === row.id).reduce((s, r) => s + r.delta, 0);
  // Grants after this purchase, each net of its own refunds (refund rows carry the refunded payment's id).
  // A refund of an older purchase lowers that purchase, not these, so only refunds of newer ones count.
  const newerRefs = new Set(rows.filter((r) => r.delta > 0 && r.ref_id !== row.id && r.ref_id).map((r) => r.ref_id));
  const newerNet = rows
    .filter((r) => r.ref_id !== row.id && (r.delta > 0 || newerRefs.has(r.ref_id)))
    .reduce((s, r) => s + r.delta, 0);
  return { existing: existing[0]!.n > 0, credits: unusedCredits(credit, own, newerNet) };
}

/**
 * The member's purchases a refund can be asked for now (newest first, by refundQuote's rules): the
 * delete-account page offers them before the credits are lost (decision 180). Only purchases paid within
 * the refund days are quoted (payments_user index, at most a handful).
 */
export async function refundOffers(context: Ctx, brand: Pick<BrandWithCompany, "refundDays">, userId: string) {
  if (brand.refundDays <= 0) return [];
  const P = schema.payments;
  const rows = await getDb(context.env.DB)
    .select()
    .from(P)
    .where(
      and(eq(P.userId, userId), eq(P.status, "paid"), gte(P.createdAt, nowS() - brand.refundDays * 86_400 - 86_400)),
    )
    .orderBy(desc(P.createdAt))
    .limit(5);
  const quotes = await Promise.all(rows.map((row) => refundQuote(context, brand, row)));
  return rows.flatMap((row, i) => {
    const q = quotes[i]!;
    return q.ok ? [{ paymentId: row.id, paidAt: row.paidAt ?? row.createdAt, ...q }] : [];
  });
}

export type RefundResult =
  | { ok: true; refundId: string }
  | { ok: false; reason: "status" | "days" | "used" | "exists" | "provider" };

/**
 * Refunds the unused credits of a payment: takes the credits back (guarded: the balance still covers
 * them and no other refund of this payment exists) with their ledger row and the refund row in one
 * batch, then asks the provider to pay the money back. If the provider refuses, the credits return.
 */
export async function requestRefund(
  context: Ctx,
  brand: Pick<BrandWithCompany, "refundDays">,
  row: PaymentRow,
): Promise<RefundResult> {
  const quote = await refundQuote(context, brand, row);
  if (!quote.ok) return quote;
  return makeRefund(context, row, { id: randomId(), credits: quote.credits, amountCents: quote.amountCents });
}

/**
 * The one way a refund is made (the member's and the console's): the refund row (guarded: the payment
 * has no live refund), the outbox row taking its credits back (wallet key refund:<id>) and `extra`
 * (the console's audit row, which must guard itself on changes()) in one batch; then the wallet takes
 * the credits (refused when the balance no longer covers them: the refund fails, nothing is taken),
 * then the provider, once, with the refund's id as the Idempotency-Key. Refused by the provider, or
 * the wallet unreachable, the refund fails and the credits return (an outbox cancel, applied after the take).
 */
async function makeRefund(
  context: Ctx,
  row: PaymentRow,
  r: { id: string; credits: number; amountCents: number },
  extra: D1PreparedStatement[] = [],
): Promise<RefundResult> {
  const db = context.env.DB;
  const { id } = r;
  const now = nowS();
  const [inserted] = await db.batch([
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: one live refund per payment (NOT EXISTS); the outbox row of its credits follows on changes() = 1, same batch
      .prepare(
        `INSERT INTO refunds (id, payment_id, user_id, credits, amount_cents, currency, status, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, 'queued', ?7
         WHERE NOT EXISTS (SELECT 1 FROM refunds WHERE payment_id = ?2 AND status NOT IN ('failed', 'canceled'))`,
      )
      .bind(id, row.id, row.userId, r.credits, r.amountCents, row.currency, now),
    outboxStatement(
      db,
      { userId: row.userId, kind: "apply", key: refundKey(id), delta: -r.credits, reason: "refund", refId: row.id },
      { afterChange: true, now },
    ),
    ...extra,
  ]);
  if (inserted!.meta.changes !== 1) return { ok: false, reason: "exists" };
  await settleWallet(context.env, row.userId);
  const taken = await outboxRow(context.env, row.userId, refundKey(id));
  if (!taken?.appliedAt || taken.refused) {
    // Not taken (the balance no longer covers it) or not known to be: no money goes back.
    await failRefund(context.env, { id, userId: row.userId, paymentId: row.id, credits: r.credits }, "queued");
    return { ok: false, reason: taken?.refused ? "used" : "provider" };
  }
  try {
    const refund = await (
      await providerOfRow(context, row)
    ).createRefund({
      paymentId: row.providerRef ?? "",
      amount: { cents: r.amountCents, currency: row.currency },
      description: `Refund of ${r.credits} unused credits`,
      metadata: { paymentId: row.id, refundId: id },
      idempotencyKey: id,
    });
    // Guarded: a webhook may already have moved the refund on (processing, refunded) before this answer is stored.
    await db
      // oxlint-disable-next-line no-restricted-properties -- guards: status taken from the provider only while still queued (a webhook may have moved the refund on)
      .prepare(
        `UPDATE refunds SET provider_ref = ?2, status = CASE WHEN status = 'queued' THEN ?3 ELSE status END,
           refunded_at = CASE WHEN status = 'queued' AND ?3 = 'refunded' THEN COALESCE(refunded_at, unixepoch()) ELSE refunded_at END
         WHERE id = ?1`,
      )
      .bind(id, refund.id, refund.status)
      .run();
    return { ok: true, refundId: id };
  } catch (e) {
    if (!(e instanceof PaymentProviderError)) throw e;
    if (e.unknownOutcome) {
      // The refund may have been made: the credits stay taken until the provider's record says.
      logError("payments.refund_unknown", e, { status: e.status, title: e.title });
      // oxlint-disable-next-line no-restricted-properties -- guards: queued → checking only from queued
      await db.prepare("UPDATE refunds SET status = 'checking' WHERE id = ?1 AND status = 'queued'").bind(id).run();
      await enqueueCheck(context, { kind: "refund", refundId: id });
      return { ok: true, refundId: id };
    }
    logError("payments.refund_refused", e, { status: e.status, title: e.title });
    await failRefund(context.env, { id, userId: row.userId, paymentId: row.id, credits: r.credits }, "queued");
    return { ok: false, reason: "provider" };
  }
}

export type OperatorRefundResult =
  | { ok: true; refundId: string; credits: number; amountCents: number; again: boolean }
  | { ok: false; reason: "status" | "days" | "used" | "exists" | "provider" | "amount" };

/**
 * A refund from the console (decision 178): `amountCents` of the payment, all or part. The member's
 * rules apply (paid, within refund_days, at most what the unused credits are worth) unless the
 * operator gives an `override` reason: then up to the whole amount, at any time. Either way the
 * credits taken back are the refunded share of the purchase, never more than are unused (so never
 * below zero), one live refund per payment, and the audit row is in the refund's batch. The form's
 * one-time token is the refund's id (and the provider's Idempotency-Key): the same click posted
 * twice finds its refund and calls the provider once.
 */
export async function operatorRefund(
  context: Ctx,
  brand: Pick<BrandWithCompany, "refundDays">,
  row: PaymentRow,
  actor: Actor,
  o: { amountCents: number; override: string | null; intentKey: string },
): Promise<OperatorRefundResult> {
  const db = context.env.DB;
  const same = async () => {
    const R = schema.refunds;
    const r = await getDb(db)
      .select({ credits: R.credits, amountCents: R.amountCents })
      .from(R)
      .where(and(eq(R.id, o.intentKey), eq(R.paymentId, row.id)))
      .get();
    return r ? { ok: true as const, refundId: o.intentKey, ...r, again: true } : null;
  };
  const earlier = await same();
  if (earlier) return earlier;
  if (row.status !== "paid") return { ok: false, reason: "status" };
  if (!Number.isInteger(o.amountCents) || o.amountCents < 1 || o.amountCents > row.amountCents)
    return { ok: false, reason: "amount" };
  const left = await unusedOrUnreachable(context.env, row);
  if (!left) return { ok: false, reason: "provider" };
  const { existing, credits: unused } = left;
  if (existing) return (await same()) ?? { ok: false, reason: "exists" };
  if (!o.override) {
    const quote = await refundQuote(context, brand, row);
    // The same click's refund made meanwhile (a double-submitted form) is that click's answer.
    if (!quote.ok) return quote.reason === "exists" ? ((await same()) ?? quote) : quote;
    if (o.amountCents > quote.amountCents) return { ok: false, reason: "amount" };
  }
  const credits = creditsForRefund(o.amountCents, row.amountCents, row.credits, unused);
  const audit = auditAfterChange(getDb(db), actor, {
    action: o.override ? "payment.refund_override" : "payment.refund",
    targetType: "payment",
    targetId: row.id,
    reason: o.override ?? "",
    before: { status: row.status, amountCents: row.amountCents, currency: row.currency },
    after: { refundId: o.intentKey, amountCents: o.amountCents, credits },
  });
  const result = await makeRefund(context, row, { id: o.intentKey, credits, amountCents: o.amountCents }, [
    toStatement(db, audit),
  ]);
  if (!result.ok) return result.reason === "exists" ? ((await same()) ?? result) : result;
  return { ok: true, refundId: result.refundId, credits, amountCents: o.amountCents, again: false };
}

/** The money did not go back, so the credits do: the refund row fails (guarded), the wallet gives back what it took. */
async function failRefund(
  env: OutboxEnv & Pick<Ctx["env"], "PAYMENT_CHECKS">,
  r: { id: string; userId: string; paymentId: string; credits: number },
  from: RefundStatus,
) {
  const db = env.DB;
  const [failed] = await db.batch([
    // oxlint-disable-next-line no-restricted-properties -- guards: → failed only from the status given; the outbox row giving the credits back follows on changes() = 1
    db.prepare("UPDATE refunds SET status = 'failed' WHERE id = ?1 AND status = ?2").bind(r.id, from),
    giveBackStatement(db, r.userId, r.id, r.paymentId),
  ]);
  if (failed!.meta.changes === 1) await settleWallet(env, r.userId);
}

const refundKey = (refundId: string) => `refund:${refundId}`;

/** The outbox row giving back what refund `refundId` took (on changes() = 1 of the statement before). */
function giveBackStatement(db: D1Database, userId: string, refundId: string, paymentId: string) {
  return outboxStatement(
    db,
    { userId, kind: "cancel", key: refundKey(refundId), delta: 0, reason: "refund", refId: paymentId },
    { afterChange: true },
  );
}

// ─── Unknown outcomes: the queued re-check ───

/** Long enough for a request still on its way to have been executed or dropped at the provider. */
export const CHECK_DELAY_S = 120;

async function enqueueCheck(context: Ctx, check: PaymentCheck) {
  try {
    await context.env.PAYMENT_CHECKS.send(check, { contentType: "json", delaySeconds: CHECK_DELAY_S });
  } catch (e) {
    // The webhook still resolves it; an operator finds the rest by status = 'checking' in the log's ids.
    logError("payments.recheck_queue_failed", e);
  }
}

/**
 * Resolves an unknown outcome from the provider's own record (Mollie's idempotency guide: inspect
 * the list endpoints). A payment: the customer's payments, by our id in their metadata; found, it is
 * applied like a webhook (paid once, credited once); not there, nothing was charged, so it failed.
 * A refund: the payment's refunds; found, its status is applied; not there, it was not made, so the
 * credits come back (once, guarded on `checking`). Throws when the provider cannot be reached, so
 * the queue tries again later. Returns what it decided.
 */
export async function recheck(
  context: Pick<Ctx, "env" | "deliver">,
  check: PaymentCheck,
): Promise<"found" | "missing" | "settled" | "unsure"> {
  const ctx = context as Ctx;
  const db = context.env.DB;
  if (check.kind === "wallet") {
    await handleWalletCheck(context.env, check);
    return "settled";
  }
  if (check.kind === "payment") {
    const row = await paymentWhere(db, eq(P.id, check.paymentId));
    if (!row || row.status !== "checking" || row.provider !== paymentProviderName(ctx.env) || !row.customerId)
      return "settled";
    const provider = await providerOfRow(ctx, row);
    const theirs = (await provider.listCustomerPayments(row.customerId)).find((p) => p.metadata.paymentId === row.id);
    if (theirs) {
      await applyProviderPayment(ctx, theirs);
      return "found";
    }
    await db
      // oxlint-disable-next-line no-restricted-properties -- guards: checking → failed only from checking
      .prepare(
        "UPDATE payments SET status = 'failed', failure_reason = ?3, updated_at = ?2 WHERE id = ?1 AND status = 'checking'",
      )
      .bind(row.id, nowS(), `${INFERRED_FAILURE} not made`)
      .run();
    return "missing";
  }
  const R = schema.refunds;
  const refund = await getDb(db)
    .select({
      id: R.id,
      paymentId: R.paymentId,
      userId: R.userId,
      credits: R.credits,
      status: R.status,
      providerRef: P.providerRef,
      provider: P.provider,
      brandId: P.brandId,
      providerAccount: P.providerAccount,
    })
    .from(R)
    .innerJoin(P, eq(P.id, R.paymentId))
    .where(eq(R.id, check.refundId))
    .get();
  if (!refund || refund.status !== "checking" || refund.provider !== paymentProviderName(ctx.env)) return "settled";
  const pp = refund.providerRef ? await (await providerOfRow(ctx, refund)).getPayment(refund.providerRef) : null;
  if (pp && pp.refunds.some((r) => r.metadata.refundId === refund.id)) {
    await applyProviderPayment(ctx, pp);
    return "found";
  }
  // Not listed, but the provider counts more refunded than our other refunds: it may be ours after all
  // (a list cut short, a refund made without our metadata). The credits stay taken; finance decides.
  if (pp && (pp.amountRefunded?.cents ?? 0) > (await otherRefundedCents(db, refund.paymentId, refund.id))) {
    const row = (await paymentWhere(db, eq(P.id, refund.paymentId)))!;
    await alertFinance(
      db,
      row,
      pp.id,
      `refund ${refund.id} not found at the provider, which counts more refunded than we do`,
    );
    return "unsure";
  }
  await failRefund(context.env, refund, "checking");
  return "missing";
}

/** What the payment's other live refunds add up to (ours), to hold against the provider's amountRefunded. */
async function otherRefundedCents(db: D1Database, paymentId: string, refundId: string): Promise<number> {
  const R = schema.refunds;
  const r = await getDb(db)
    .select({ cents: sql<number>`COALESCE(SUM(${R.amountCents}), 0)` })
    .from(R)
    .where(and(eq(R.paymentId, paymentId), sql`${R.id} <> ${refundId}`, notInArray(R.status, ["failed", "canceled"])))
    .get();
  return r?.cents ?? 0;
}

/**
 * The hourly backstop for a re-check whose queue message was lost (the send failed, or the queue gave
 * up): every payment or refund still `checking` well after its check was due is queued again. The
 * re-check itself is guarded on `checking`, so a row queued twice is settled once.
 */
export async function requeueStaleChecks(env: Pick<Ctx["env"], "DB" | "PAYMENT_CHECKS">, now: number): Promise<number> {
  const db = getDb(env.DB);
  const due = now - 2 * CHECK_DELAY_S;
  const [payments, refunds] = await db.batch([
    db
      .select({ id: schema.payments.id })
      .from(schema.payments)
      .where(and(eq(schema.payments.status, "checking"), lt(schema.payments.updatedAt, due)))
      .limit(100),
    db
      .select({ id: schema.refunds.id })
      .from(schema.refunds)
      .where(and(eq(schema.refunds.status, "checking"), lt(schema.refunds.createdAt, due)))
      .limit(100),
  ]);
  const checks: PaymentCheck[] = [
    ...payments.map((p) => ({ kind: "payment" as const, paymentId: p.id })),
    ...refunds.map((r) => ({ kind: "refund" as const, refundId: r.id })),
  ];
  if (checks.length) await env.PAYMENT_CHECKS.sendBatch(checks.map((body) => ({ body, contentType: "json" as const })));
  return checks.length;
}

// ─── Payments that never hear back ───

/** An open or pending payment not heard of for this long is asked about at the provider. */
export const SILENT_AFTER_S = 5 * 60;
/**
 * How far back the sweep looks: Mollie lets a bank transfer stay open for 12 days by default (the
 * longest of our methods; every other one expires within hours), so two weeks covers them all.
 */
export const SWEEP_WINDOW_S = 14 * 86_400;
const SWEEP_LIMIT = 100;

/**
 * The scheduled sweep for payments whose webhook never came (blocked on the way, an outage longer
 * than the provider's retries): every open or pending payment older than SILENT_AFTER_S, not asked
 * about in that time, is fetched from the provider and applied like a webhook (once, guarded).
 * Oldest asked first, at most SWEEP_LIMIT a run; an unreachable provider ends the run (the next tries).
 */
export async function sweepSilentPayments(context: Pick<Ctx, "env" | "deliver">, now: number): Promise<number> {
  const ctx = context as Ctx;
  const rows = await getDb(context.env.DB)
    .select({ id: P.id, providerRef: P.providerRef, brandId: P.brandId, providerAccount: P.providerAccount })
    .from(P)
    .where(
      and(
        inArray(P.status, ["open", "pending"]),
        eq(P.provider, paymentProviderName(ctx.env)),
        isNotNull(P.providerRef),
        gte(P.createdAt, now - SWEEP_WINDOW_S),
        lt(P.createdAt, now - SILENT_AFTER_S),
        lt(sql`COALESCE(${P.providerCheckedAt}, 0)`, now - SILENT_AFTER_S),
      ),
    )
    .orderBy(sql`COALESCE(${P.providerCheckedAt}, ${P.createdAt})`)
    .limit(SWEEP_LIMIT);
  let asked = 0;
  for (const row of rows) {
    await getDb(context.env.DB).update(P).set({ providerCheckedAt: now }).where(eq(P.id, row.id));
    let provider: PaymentProvider;
    try {
      // Each payment in its own account; one without its key is skipped (production refuses its brand).
      provider = await providerOfRow(ctx, row);
    } catch (e) {
      logError("payments.sweep_account_unusable", e, { paymentId: row.id });
      continue;
    }
    try {
      const pp = await provider.getPayment(row.providerRef!);
      if (pp) await applyProviderPayment(ctx, pp);
      asked++;
    } catch (e) {
      logError("payments.sweep_unreachable", e, { paymentId: row.id });
      break;
    }
  }
  return asked;
}

/**
 * The return page's one look of its own: a payment still open or pending when the member comes back,
 * never asked about before, is fetched from the provider once (guarded: of two renders one asks) and
 * applied like a webhook. Answers the row as it is now; a provider that cannot be reached changes nothing.
 */
export async function askProviderOnce(context: Ctx, row: PaymentRow): Promise<PaymentRow> {
  if ((row.status !== "open" && row.status !== "pending") || !row.providerRef || row.providerCheckedAt !== null)
    return row;
  const db = context.env.DB;
  const claimed = await getDb(db)
    .update(P)
    .set({ providerCheckedAt: nowS() })
    .where(and(eq(P.id, row.id), sql`${P.providerCheckedAt} IS NULL`))
    .run();
  if (claimed.meta.changes !== 1) return row;
  try {
    const pp = await (await providerOfRow(context, row)).getPayment(row.providerRef);
    if (pp) await applyProviderPayment(context, pp);
  } catch (e) {
    logError("payments.return_check_failed", e, { paymentId: row.id });
  }
  return (await paymentWhere(db, eq(P.id, row.id))) ?? row;
}

export type RefundRow = Awaited<ReturnType<typeof refundsOf>>[number];

export async function refundsOf(context: Ctx, paymentId: string) {
  const R = schema.refunds;
  return getDb(context.env.DB)
    .select({
      id: R.id,
      credits: R.credits,
      amount_cents: R.amountCents,
      currency: R.currency,
      status: R.status,
      created_at: R.createdAt,
    })
    .from(R)
    .where(eq(R.paymentId, paymentId))
    .orderBy(desc(R.createdAt));
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
