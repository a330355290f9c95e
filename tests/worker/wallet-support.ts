/**
 * Reading money in tests after decision 189: the balance and the ledger live in the member's wallet
 * (their MemberHub). These helpers ask the wallet what the tests used to read from D1's credit_ledger
 * and users.credits; D1's users.credits is read only after the wallet's copy is flushed.
 */
import { env } from "cloudflare:test";
import { applyCredits, flushWallet, walletLedger } from "../../app/wallet/wallet.server";

export type LedgerRow = {
  id: number;
  user_id: string;
  delta: number;
  reason: string;
  ref_id: string | null;
  created_at: number;
};

/** The member's ledger rows, oldest first, under D1's column names; `where` filters as the SQL did. */
export async function ledgerOf(userId: string, where: (r: LedgerRow) => boolean = () => true): Promise<LedgerRow[]> {
  const rows = await walletLedger(env, userId, { oldestFirst: true });
  return rows
    .map((r) => ({
      id: r.id,
      user_id: userId,
      delta: r.delta,
      reason: r.reason,
      ref_id: r.refId,
      created_at: r.createdAt,
    }))
    .filter(where);
}

/** The member's balance as D1 holds it once the wallet's copy is written (what lists and the console read). */
export async function flushedCredits(userId: string): Promise<number> {
  return flushWallet(env, userId);
}

/** Every wallet of these members writes its copy to D1 now (before a test reads users.credits). */
export async function flushAll(...userIds: string[]) {
  await Promise.all(userIds.map((id) => flushWallet(env, id)));
}

let spends = 0;
/** Spends credits the way the chat and the unlocks do now: through the member's wallet. True if charged. */
export async function spendViaWallet(userId: string, credits: number, reason: "message" | "photo" = "photo") {
  spends += 1;
  const r = await applyCredits(env, userId, { key: `test-spend:${userId}:${spends}`, delta: -credits, reason });
  return r.ok;
}
