/** Money whose outcome is unknown: the queued re-check, and the sweep for payments that never hear back. */
import {
  type Ctx,
  paymentWhere,
  P,
  providerOfRow,
  CHECK_DELAY_S,
  SWEEP_WINDOW_S,
  type PaymentRow,
} from "./common.server";
import { type PaymentCheck, INFERRED_FAILURE } from "../payment-rules";
import { handleWalletCheck } from "../../wallet/outbox.server";
import { eq, sql, and, notInArray, lt, inArray, isNotNull, gte } from "drizzle-orm";
import { paymentProviderName } from "~/lib/payments/index.server";
import { applyProviderPayment, alertFinance } from "./webhook.server";
import { nowS } from "~/lib/dates";
import { schema, getDb } from "../../../db/client";
import { failRefund } from "./refunds.server";
import type { PaymentProvider } from "~/lib/payments/provider";
import { logError } from "~/lib/log.server";

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
