/**
 * The member's wallet (decision 189): their balance and credit ledger live in their own MemberHub
 * object (app/chat/hub.ts), which applies each change once by its key and never goes below zero.
 * Everything that moves credits calls these; D1's users.credits is only a copy the wallet writes.
 *
 * Keys: message:<conversation>:<clientId>, gift:..., photo:<viewer>:<photo>, payment:<id>,
 * refund:<id>, chargeback:<payment id>, grant:<audit id>, signup:<userId>; imported rows d1:<ledger id>.
 */
import { hubStub } from "../chat/stubs";
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
