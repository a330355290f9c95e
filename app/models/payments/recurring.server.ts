/** Money: repeat orders, a recurring payment on the member's mandate. */
import {
  type PaymentRow,
  type Ctx,
  type PackageRow,
  paymentTarget,
  WEBHOOK_PATH,
  P,
  enqueueCheck,
  packageRow,
} from "./common.server";
import type { BrandWithCompany } from "../brand.server";
import { type CheckoutDiscount, paymentOfIntent } from "./checkout.server";
import { paymentProvider } from "~/lib/payments/index.server";
import { randomId } from "~/lib/password";
import { claimGuardSql } from "../discounts.server";
import { noHoldSql, paymentHoldOf } from "./chargebacks.server";
import { DIRECT_DEBIT_METHOD, INFERRED_FAILURE } from "../payment-rules";
import { directDebitBlockStatement } from "./methods.server";
import { getDb } from "../../../db/client";
import { sql, eq } from "drizzle-orm";
import { nowS } from "~/lib/dates";
import { applyProviderPayment } from "./webhook.server";
import { ownPayment, lastMandateOrder } from "./views.server";
import { PaymentProviderError } from "~/lib/payments/provider";
import { logError } from "~/lib/log.server";

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
