/**
 * The move of existing balances and ledgers from D1 into the wallets (decisions 189, 194): each
 * member's wallet imports their D1 state on its first touch; this touches them page by page through
 * the data-moves queue and records the end, after which a later release may drop credit_ledger.
 */
import { and, asc, gt, inArray, isNull } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import type { Env } from "../lib/env";
import { logError } from "../lib/log.server";
import { nowS } from "../lib/dates";
import { recordMoveDone } from "../models/data-moves.server";
import type { OutboxEnv } from "./outbox.server";
import { walletBalance } from "./wallet.server";

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
