/**
 * Money's one home (decisions 189, 229): a member's credits, from the Worker's side.
 *
 *   app/wallet/wallet.server.ts   these calls: grant or charge (applyCredits), refund or claw back
 *                                 (cancelCredits), balance, history (walletLedger, walletStatement,
 *                                 walletSummary)
 *   app/wallet/outbox.server.ts   a D1 change and its wallet change, both exactly once (the outbox)
 *   app/wallet/migrate.server.ts  the move of D1's old balances and ledger rows into the wallets
 *   app/wallet/wallet.ts          the operations inside the member's object (MemberHub, app/chat/hub.ts,
 *                                 only hands its wallet RPCs over), on app/wallet/schema.ts
 *
 * The balance and the ledger live in the member's own object, which applies each change once by its
 * key and never goes below zero. Every balance the site shows (the header, the shop, the chat, the
 * credits pages, the data export, the console's member and payment pages) is read here.
 *
 * D1's users.credits is a copy the wallet writes after each change (a chat spend's coalesced by the
 * object's alarm, seconds later), never read to decide a spend. What it is still for: the wallet's
 * first touch of a member it has not imported yet (decision 194's move), a balance to show while the
 * member's object cannot be reached (shownBalance), and an operator's SQL over many members at once
 * in D1. Prices: app/models/credits.server.ts (pricesFor).
 *
 * Keys: message:<conversation>:<sender>:<client id>, gift:…, photo:<viewer>:<photo>, payment:<id>,
 * refund:<id>, chargeback:<payment id>:<n>, grant:<id>, signup:<user id>; imported rows d1:<ledger id>.
 */
import { hubStub } from "../chat/stubs";
import type { Env } from "../lib/env";
import { nowS } from "../lib/dates";
import type {
  CreditReason,
  WalletOp,
  WalletPage,
  WalletResult,
  WalletRow,
  WalletStatement,
  WalletSummary,
} from "./types";

export type { CreditReason, WalletOp, WalletPage, WalletResult, WalletRow, WalletStatement, WalletSummary };
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

/** The balance a page shows: the wallet's; D1's copy (`copy`) only while the member's object cannot be reached. */
export async function shownBalance(env: WalletEnv, userId: string, copy: number): Promise<number> {
  return walletBalance(env, userId).catch(() => copy);
}

/** The member's ledger rows (newest first unless `oldestFirst`). */
export async function walletLedger(env: WalletEnv, userId: string, page: WalletPage = {}): Promise<WalletRow[]> {
  return wallet(env, userId).walletLedger(userId, page);
}

/**
 * The balance and the ledger rows it comes from, read by the wallet at one instant: what shows both
 * (the data export, a payment's page, a refund's quote) asks here, never walletBalance and walletLedger
 * side by side, which a charge landing between them would set apart.
 */
export async function walletStatement(env: WalletEnv, userId: string, page: WalletPage = {}): Promise<WalletStatement> {
  return wallet(env, userId).walletStatement(userId, page);
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
