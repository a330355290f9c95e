/**
 * The wallet's types: what the Worker, the rooms and the member's object exchange about money
 * (decisions 189, 193). Apart from the code so app/chat/rpc.ts can name them without importing it.
 */
import type { schema } from "../../db/client";

/**
 * What a room spent from (or gave back of) its allowance (decision 193): `charge` is one message's
 * charge (key = the send's key, one ledger row in the wallet); `return` gives unspent credits back.
 */
export type RoomCharge = {
  key: string;
  kind: "charge" | "return";
  credits: number;
  reason: CreditReason | null;
  refId: string | null;
  createdAt: number;
};
export type ReserveResult = { ok: true; amount: number } | { ok: false; balance: number };

/** A page of the ledger: newest first, ids below `before`; `reasons`/`refId` filter. */
export type WalletPage = {
  limit?: number;
  before?: number;
  refId?: string;
  reasons?: CreditReason[];
  /** Every row adding credits, and the rows of these reasons. */
  grantsOr?: CreditReason[];
  oldestFirst?: boolean;
};
/** The balance and a page of the ledger at one instant (Wallet.statement). */
export type WalletStatement = { balance: number; rows: WalletRow[] };
export type WalletSummary = { balance: number; opening: number; sum: number; rows: number; seededAt: number };

/** The ledger's reasons (as credit_ledger.reason). */
export type CreditReason = (typeof schema.creditLedger.$inferSelect)["reason"];

/** One change of a member's balance, applied at most once per `key`. */
export type WalletOp = {
  /** Idempotency key: message:<conversation>:<clientId>, payment:<id>, refund:<id>, grant:<audit id>, signup:<userId>. */
  key: string;
  /** Integer credits; < 0 spends. */
  delta: number;
  reason: CreditReason;
  /** What it pays for / came from (as credit_ledger.ref_id). */
  refId?: string | null;
  /** Seconds; default now. */
  at?: number;
  /** A negative delta takes at most the balance (chargebacks), recording what it took. */
  clamp?: boolean;
};

export type WalletResult =
  | { ok: true; applied: boolean; delta: number; balance: number }
  | { ok: false; error: "credits"; balance: number };

/** A row of the member's ledger, as the wallet stores it. */
export type WalletRow = {
  id: number;
  key: string;
  delta: number;
  reason: CreditReason;
  refId: string | null;
  createdAt: number;
  /** The balance right after this row. */
  balance: number;
};
