/**
 * The member's wallet (decision 189): their balance and credit ledger live in their own MemberHub
 * object (app/chat/hub.ts), which applies each change once by its key and never goes below zero.
 * Everything that moves credits calls these; D1's users.credits is only a copy the wallet writes.
 *
 * Keys: message:<conversation>:<clientId>, gift:..., photo:<viewer>:<photo>, payment:<id>,
 * refund:<id>, chargeback:<payment id>, grant:<audit id>, signup:<userId>; imported rows d1:<ledger id>.
 */
import { recordMoveDone } from "./data-moves.server";
import { and, asc, desc, eq, gt, inArray, isNull, lt } from "drizzle-orm";
import { getDb, schema, toStatement } from "../../db/client";
import { hubStub } from "../chat/stubs";
import { logError } from "../lib/log.server";
import type { CreditReason, WalletOp, WalletPage, WalletResult, WalletRow, WalletSummary } from "../chat/rpc";
import type { Env } from "../lib/env";
import { nowS } from "../lib/dates";

export type { CreditReason, WalletOp, WalletPage, WalletResult, WalletRow, WalletSummary };
export type WalletEnv = Pick<Env, "MEMBER_HUB">;

const wallet = (env: WalletEnv, userId: string) => hubStub(env, userId);

/** Applies `op` to the member's wallet once per key (a retry answers applied: false). */
export async function applyCredits(env: WalletEnv, userId: string, op: WalletOp): Promise<WalletResult> {
  // Checked here too, so a caller's bug throws in the caller (the object refuses it as well).
  if (!op.key || op.key.length > 200 || !Number.isSafeInteger(op.delta))
    throw new Error(`wallet: bad op ${op.key} ${op.delta}`);
  return wallet(env, userId).applyCredits(userId, { ...op, at: op.at ?? nowS() });
}

/** Gives back what `key` took (key `<key>:cancel` in the ledger), once; a no-op when `key` was never applied. */
export async function cancelCredits(
  env: WalletEnv,
  userId: string,
  key: string,
  reason: CreditReason,
  at: number = nowS(),
): Promise<WalletResult> {
  return wallet(env, userId).cancelCredits(userId, key, reason, at);
}

/** The member's balance: the truth, for every decision and for what the member sees. */
export async function walletBalance(env: WalletEnv, userId: string): Promise<number> {
  return wallet(env, userId).walletBalance(userId);
}

/** The member's ledger rows (newest first unless `oldestFirst`). */
export async function walletLedger(env: WalletEnv, userId: string, page: WalletPage = {}): Promise<WalletRow[]> {
  return wallet(env, userId).walletLedger(userId, page);
}

/** The balance and how the ledger explains it (opening + sum = balance). */
export async function walletSummary(env: WalletEnv, userId: string): Promise<WalletSummary> {
  return wallet(env, userId).walletSummary(userId);
}

/** What was applied under `key`, if anything. */
export async function walletOp(env: WalletEnv, userId: string, key: string) {
  return wallet(env, userId).walletOp(userId, key);
}

/** Writes the balance to D1's users.credits now (otherwise a chat spend's copy follows within seconds). */
export async function flushWallet(env: WalletEnv, userId: string): Promise<number> {
  return wallet(env, userId).walletFlush(userId);
}

/** Deletes the wallet's storage (an account purged). */
export async function purgeWallet(env: WalletEnv, userId: string): Promise<void> {
  return wallet(env, userId).walletPurge();
}

// ---------------------------------------------------------------------------------------------
// The outbox: a D1 change and a wallet change, both exactly once

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

// ---------------------------------------------------------------------------------------------
// The migration of existing balances and ledgers into the wallets

/** Members per queue message: each is one wallet touched (an import of its D1 rows the first time). */
export const MIGRATE_PAGE = 50;

/**
 * One page of the migration: the members after `after` (by id) whose wallet has not imported their
 * D1 state yet are touched (the wallet imports on its first touch, once: keyed d1:<ledger id>, so a
 * second run or a member who spent meanwhile changes nothing) and marked. Answers where the next page
 * starts, or null when this was the last. A member whose wallet fails is left unmarked for the next run.
 */
export async function migrateWalletsPage(
  env: OutboxEnv,
  after = "",
  limit = MIGRATE_PAGE,
): Promise<{ migrated: number; failed: number; next: string | null }> {
  const U = schema.users;
  const db = getDb(env.DB);
  const page = await db
    .select({ id: U.id })
    .from(U)
    .where(and(isNull(U.walletAt), gt(U.id, after)))
    .orderBy(asc(U.id))
    .limit(limit);
  const touched = await Promise.allSettled(page.map((u) => walletBalance(env, u.id)));
  const done = page.filter((_, i) => touched[i]!.status === "fulfilled").map((u) => u.id);
  if (done.length)
    await db
      .update(U)
      .set({ walletAt: nowS() })
      .where(and(inArray(U.id, done), isNull(U.walletAt)));
  const failed = page.length - done.length;
  if (failed) logError("wallet.migrate_failed", new Error(`${failed} wallets not reached`), { after });
  return { migrated: done.length, failed, next: page.length === limit ? page.at(-1)!.id : null };
}

/** Starts (or restarts from the first member) the migration through the data-moves queue when any member is left. */
export async function startWalletMigration(env: OutboxEnv & Pick<Env, "MOVES_QUEUE">): Promise<boolean> {
  // Nothing left: recorded, so the next release may drop credit_ledger (decision 194).
  if (!(await walletsLeftInD1(env.DB))) return (await recordMoveDone(env.DB, "credit_ledger"), false);
  await env.MOVES_QUEUE.send({ kind: "wallet-migrate" }, { contentType: "json" });
  return true;
}

/**
 * A `wallet-migrate` page of the data-moves queue (decision 194): one page, then the next queued while
 * any is left; the last page records the end when no member waits (never restarts, as the chat's move).
 */
export async function continueWalletMigration(env: OutboxEnv & Pick<Env, "MOVES_QUEUE">, after: string) {
  const r = await migrateWalletsPage(env, after);
  if (r.next !== null) await env.MOVES_QUEUE.send({ kind: "wallet-migrate", after: r.next }, { contentType: "json" });
  else if (!(await walletsLeftInD1(env.DB))) await recordMoveDone(env.DB, "credit_ledger");
  return r;
}

/** Whether any member's balance and ledger still wait in D1 for the move. */
async function walletsLeftInD1(db: D1Database): Promise<boolean> {
  const U = schema.users;
  return !!(await getDb(db).select({ id: U.id }).from(U).where(isNull(U.walletAt)).limit(1).get());
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
