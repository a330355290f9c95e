/**
 * The wallet's outbox (decision 189): where a D1 change and a wallet change must both happen (a
 * payment becoming paid and its credits, a refund, a chargeback, a sign-up's or the console's grant),
 * a wallet_outbox row goes into the D1 batch of the change, after its guarded status flip, and is
 * delivered to the member's wallet by its key: at once (settleWallet), else by the queue and the
 * hourly cron, until it is applied, once.
 */
import { and, asc, desc, eq, inArray, isNull, lt } from "drizzle-orm";
import { getDb, schema, toStatement } from "../../db/client";
import type { Env } from "../lib/env";
import { logError } from "../lib/log.server";
import { nowS } from "../lib/dates";
import { applyCredits, cancelCredits, walletBalance, walletLedger } from "./wallet.server";
import type { CreditReason, WalletResult } from "./types";

/** An amount computed in the outbox statement (e.g. a payment's unrefunded credits); may use ?6 (ref_id). */
export type OutboxSql = { sql: string };
export type OutboxEntry = {
  userId: string;
  kind: "apply" | "cancel" | "reverse";
  /** The wallet key (apply), the key whose effect is given back (cancel), or ignored (reverse). May be SQL using ?6 (ref_id). */
  key: string | OutboxSql;
  delta: number | OutboxSql;
  reason: CreditReason;
  refId: string | null;
  clamp?: boolean;
};

/**
 * The outbox row of a wallet change, for the D1 batch of the change it follows. With `afterChange`
 * it is written only if the statement just before changed a row (a guarded status change), so the
 * wallet change exists exactly when the D1 change does; drainOutbox then applies it once by its key.
 */
export function outboxStatement(d1: D1Database, e: OutboxEntry, o: { afterChange: boolean; now?: number }) {
  const key = typeof e.key === "string" ? "?3" : `(${e.key.sql})`;
  const delta = typeof e.delta === "number" ? "?4" : `(${e.delta.sql})`;
  if (typeof e.delta === "number" && !Number.isSafeInteger(e.delta)) throw new Error(`bad delta ${e.delta}`);
  return (
    d1
      // oxlint-disable-next-line no-restricted-properties -- guards: the outbox row follows the guarded change before it in the same batch (changes() = 1), so the wallet change happens exactly when the D1 change did
      .prepare(
        `INSERT INTO wallet_outbox (user_id, kind, key, delta, reason, ref_id, clamp, created_at)
         SELECT ?1, ?2, ${key}, ${delta}, ?5, ?6, ?7, ?8${o.afterChange ? " WHERE changes() = 1" : ""}`,
      )
      .bind(
        e.userId,
        e.kind,
        typeof e.key === "string" ? e.key : null,
        typeof e.delta === "number" ? e.delta : null,
        e.reason,
        e.refId,
        e.clamp ? 1 : 0,
        o.now ?? nowS(),
      )
  );
}

type OutboxRow = typeof schema.walletOutbox.$inferSelect;
export type OutboxEnv = Pick<Env, "DB" | "MEMBER_HUB">;

/** One outbox row applied to the wallet (idempotent by its key: a retry after a lost answer changes nothing). */
async function applyOutboxRow(env: OutboxEnv, row: OutboxRow): Promise<WalletResult> {
  const reason = row.reason as CreditReason;
  if (row.kind === "cancel") return cancelCredits(env, row.userId, row.key, reason, row.createdAt);
  if (row.kind === "reverse") {
    // The chargeback it reverses: the newest of the payment's, whether made through the outbox or imported from D1.
    const [last] = await walletLedger(env, row.userId, { refId: row.refId ?? "", reasons: ["chargeback"], limit: 1 });
    if (!last) return { ok: true, applied: false, delta: 0, balance: await walletBalance(env, row.userId) };
    return cancelCredits(env, row.userId, last.key, reason, row.createdAt);
  }
  return applyCredits(env, row.userId, {
    key: row.key,
    delta: row.delta,
    reason,
    refId: row.refId,
    at: row.createdAt,
    clamp: row.clamp,
  });
}

/** What marking an applied row also records in D1 (a chargeback: how much it could not take back). */
function afterApplied(d1: D1Database, row: OutboxRow, result: WalletResult) {
  if (row.kind !== "apply" || row.reason !== "chargeback" || !row.refId || !result.ok) return [];
  return [
    toStatement(
      d1,
      getDb(d1)
        .update(schema.payments)
        .set({ chargebackUnrecoveredCredits: Math.max(0, result.delta - row.delta) })
        .where(eq(schema.payments.id, row.refId)),
    ),
  ];
}

export type DrainResult = { applied: number; refused: number[]; failed: number; left: boolean };

/**
 * Applies the outbox rows not applied yet (of one member, or the oldest of everyone), each member's
 * in order (a refund's debit before its give-back), and marks each applied with what the wallet
 * recorded. A member whose wallet cannot be reached is left for the next drain (the queue, the
 * hourly cron); a row applied twice is harmless (its key). Never throws for a wallet failure.
 */
export async function drainOutbox(
  env: OutboxEnv,
  o: { userId?: string; ids?: number[]; limit?: number; olderThan?: number } = {},
): Promise<DrainResult> {
  const W = schema.walletOutbox;
  const db = getDb(env.DB);
  const limit = o.limit ?? 100;
  const rows = await db
    .select()
    .from(W)
    .where(
      and(
        isNull(W.appliedAt),
        o.userId ? eq(W.userId, o.userId) : undefined,
        o.ids ? inArray(W.id, o.ids) : undefined,
        o.olderThan !== undefined ? lt(W.createdAt, o.olderThan) : undefined,
      ),
    )
    .orderBy(asc(W.id))
    .limit(limit);
  const byMember = new Map<string, OutboxRow[]>();
  for (const r of rows) byMember.set(r.userId, [...(byMember.get(r.userId) ?? []), r]);
  const out: DrainResult = { applied: 0, refused: [], failed: 0, left: rows.length === limit };
  await Promise.all(
    [...byMember.values()].map(async (mine) => {
      for (const row of mine) {
        let result: WalletResult;
        try {
          result = await applyOutboxRow(env, row);
        } catch (e) {
          logError("wallet.outbox_failed", e, { memberId: row.userId, key: row.key });
          out.failed += 1;
          out.left = true;
          return;
        }
        await env.DB.batch([
          toStatement(
            env.DB,
            db
              .update(W)
              .set({ appliedAt: nowS(), result: result.ok ? result.delta : 0, refused: !result.ok })
              .where(and(eq(W.id, row.id), isNull(W.appliedAt))),
          ),
          ...afterApplied(env.DB, row, result),
        ]);
        out.applied += 1;
        if (!result.ok) out.refused.push(row.id);
      }
    }),
  );
  return out;
}

/**
 * Applies the member's outbox rows now; whatever the wallet could not take yet is queued for a retry
 * (and the hourly cron picks up what a lost queue message leaves), so every row is applied once.
 */
export async function settleWallet(env: OutboxEnv & Partial<Pick<Env, "PAYMENT_CHECKS">>, userId: string) {
  const r = await drainOutbox(env, { userId });
  if ((r.failed === 0 && !r.left) || !env.PAYMENT_CHECKS) return r;
  try {
    await env.PAYMENT_CHECKS.send({ kind: "wallet", userId }, { contentType: "json", delaySeconds: 30 });
  } catch (e) {
    logError("wallet.queue_failed", e, { memberId: userId });
  }
  return r;
}

/** The newest outbox row of a member for `key` (what a caller just wrote), with its outcome once applied. */
export async function outboxRow(env: Pick<Env, "DB">, userId: string, key: string) {
  const W = schema.walletOutbox;
  return getDb(env.DB)
    .select()
    .from(W)
    .where(and(eq(W.userId, userId), eq(W.key, key)))
    .orderBy(desc(W.id))
    .limit(1)
    .get();
}

/**
 * A wallet change that follows no status change (a console grant or take, with its audit row in
 * `with`; the tests' starting credits): its outbox row in one batch with `with`, delivered now.
 * Answers the row as the wallet left it (refused: a take the balance no longer covered).
 */
export async function applyThroughOutbox(
  env: OutboxEnv & Partial<Pick<Env, "PAYMENT_CHECKS">>,
  e: OutboxEntry & { key: string; delta: number },
  withStatements: D1PreparedStatement[] = [],
) {
  await env.DB.batch([...withStatements, outboxStatement(env.DB, e, { afterChange: false })]);
  await settleWallet(env, e.userId);
  return outboxRow(env, e.userId, e.key);
}

/** A wallet outbox message (the PAYMENT_CHECKS queue): throws to be retried when a wallet was not reached. */
export async function handleWalletCheck(
  env: OutboxEnv & Pick<Env, "PAYMENT_CHECKS">,
  check: { kind: "wallet"; userId?: string },
): Promise<void> {
  const r = await drainOutbox(env, check.userId ? { userId: check.userId } : {});
  if (r.failed) throw new Error(`wallet outbox: ${r.failed} rows not applied yet`);
  if (r.left) await env.PAYMENT_CHECKS.send(check, { contentType: "json" });
}
