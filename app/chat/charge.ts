/**
 * The charge of a message, as the room asks for it (decision 190): spend `cost` credits of the
 * sender once per `key` (conversation, sender, client id), and give them back once if the message
 * could not be stored.
 * INTERIM until the wallet (decision 189, branch w23) is merged: today's guarded D1 debit and its
 * ledger row; replaced by applyCredits / cancelCredits.
 */
import type { Env } from "../lib/env";
import { debitStatement, grantStatements, ledgerStatement } from "../models/credits.server";

export type Charge = {
  userId: string;
  key: string;
  refId: string;
  cost: number;
  reason: "message" | "gift";
};

/** True when charged (or charged before under this key); false: the balance does not cover it. */
export async function chargeSend(env: Pick<Env, "DB">, c: Charge): Promise<boolean> {
  const db = env.DB;
  const [debit] = await db.batch([
    debitStatement(db, c.userId, c.cost),
    ledgerStatement(db, { userId: c.userId, delta: -c.cost, reason: c.reason, refId: c.refId }),
  ]);
  return (debit?.meta.changes ?? 0) === 1;
}

/** Gives back what `c` took (a store that failed after the charge). */
export async function refundSend(env: Pick<Env, "DB">, c: Charge): Promise<void> {
  await env.DB.batch(grantStatements(env.DB, c.userId, c.cost, c.reason, { refId: `${c.refId}:cancel` }));
}
