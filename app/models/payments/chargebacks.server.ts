/** Money after the fact: refunds' status changes, reversals and chargebacks, and the hold a chargeback puts on the member. */
import { type Ctx, type PaymentRow, paymentWhere, P } from "./common.server";
import type { ProviderPayment, Money } from "~/lib/payments/provider";
import { schema, getDb } from "../../../db/client";
import { eq } from "drizzle-orm";
import { refundCanMove, refundReturnsCredits, chargedBackCents } from "../payment-rules";
import { countEvent } from "~/lib/metrics.server";
import { giveBackStatement } from "./refunds.server";
import { settleWallet, outboxStatement } from "../../wallet/outbox.server";
import { nowS } from "~/lib/dates";

// ─── After the fact: refund status changes and chargebacks (the webhook is called for the payment) ───

/**
 * What the provider now says about a paid payment's refunds and chargebacks, applied once each:
 * a refund's status only moves forward, guarded on its previous status, and a refund that failed
 * (or was canceled) gives its credits back in the same batch; a chargeback is applied by
 * applyChargeback. Returns the row again if it changed.
 */
export async function applyAfterTheFact(
  context: Ctx,
  row: PaymentRow,
  pp: ProviderPayment,
): Promise<PaymentRow | null> {
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
