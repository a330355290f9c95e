/**
 * Money: the webhook. It re-fetches the payment by id and applies the new status once, guarded on the
 * previous status, in one D1 batch with paid_user and the wallet outbox row of its credits, which is
 * then applied to the member's wallet once by its key (decision 189; retried by the queue and the cron
 * until applied). The return page only reads.
 */
import { type PaymentRow, type Ctx, paymentWhere, P, targetOfRow, SWEEP_WINDOW_S } from "./common.server";
import { nowS } from "~/lib/dates";
import { outboxStatement, settleWallet } from "../../wallet/outbox.server";
import { redemptionStatement, refusedDiscountOf } from "../discounts.server";
import { type ProviderPayment, PaymentProviderError } from "~/lib/payments/provider";
import { eq, and, sql, isNull, gte } from "drizzle-orm";
import { paymentProviderName, type PaymentTarget, paymentProvider } from "~/lib/payments/index.server";
import { logError, logWarning } from "~/lib/log.server";
import { statusFromProvider, type PaymentStatus, providerOverrides, canMove, disagreement } from "../payment-rules";
import { applyAfterTheFact } from "./chargebacks.server";
import { countEvent } from "~/lib/metrics.server";
import { getDb } from "../../../db/client";

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
export async function alertFinance(
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
