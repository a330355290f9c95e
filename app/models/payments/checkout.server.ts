/** Money: starting a checkout, once per click (decision 115), with the member's provider customer. */
import {
  type Ctx,
  type PaymentRow,
  paymentWhere,
  P,
  type PackageRow,
  paymentTarget,
  WEBHOOK_PATH,
} from "./common.server";
import { hmacHex } from "~/lib/hmac.server";
import { type PaymentProvider, PaymentProviderError } from "~/lib/payments/provider";
import { schema, getDb } from "../../../db/client";
import { and, eq, sql } from "drizzle-orm";
import { type PaymentTarget, paymentProvider } from "~/lib/payments/index.server";
import { randomId } from "~/lib/password";
import type { BrandWithCompany } from "../brand.server";
import {
  directDebitBlockStatement,
  directDebitFirstMethod,
  withoutDirectDebit,
  type MethodOption,
  methodsFor,
} from "./methods.server";
import { claimGuardSql } from "../discounts.server";
import { oneTimeGuardSql, oneTimeUsed } from "../offers.server";
import { localeFor, INFERRED_FAILURE } from "../payment-rules";
import { nowS } from "~/lib/dates";
import { logError } from "~/lib/log.server";

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
export async function paymentOfIntent(db: D1Database, userId: string, intentKey: string): Promise<PaymentRow | null> {
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
