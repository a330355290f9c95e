/** Money: refunds of unused credits, asked by the member or made by an operator. */
import { type Ctx, type PaymentRow, providerOfRow, enqueueCheck } from "./common.server";
import type { BrandWithCompany } from "../brand.server";
import { withinRefundDays, refundCents, unusedCredits, creditsForRefund, type RefundStatus } from "../payment-rules";
import { nowS } from "~/lib/dates";
import { type OutboxEnv, outboxStatement, settleWallet, outboxRow } from "../../wallet/outbox.server";
import { logError } from "~/lib/log.server";
import { schema, getDb, toStatement } from "../../../db/client";
import { sql, and, eq, notInArray, gte, desc } from "drizzle-orm";
import { walletStatement } from "../../wallet/wallet.server";
import { randomId } from "~/lib/password";
import { PaymentProviderError } from "~/lib/payments/provider";
import { type Actor, auditAfterChange } from "../admin/audit.server";

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
export async function failRefund(
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
export function giveBackStatement(db: D1Database, userId: string, refundId: string, paymentId: string) {
  return outboxStatement(
    db,
    { userId, kind: "cancel", key: refundKey(refundId), delta: 0, reason: "refund", refId: paymentId },
    { afterChange: true },
  );
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
