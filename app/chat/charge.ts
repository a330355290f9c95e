/**
 * The charge of a message, as the room asks for it (decision 190): the sender's wallet (decision 189,
 * app/models/wallet.server.ts) spends `cost` once per `key` (conversation, sender, client id), and
 * gives it back once if the message could not be stored. A key, not a counter: a room that crashed
 * between charge and store finds the charge applied on the retry and is not charged twice.
 */
import type { Env } from "../lib/env";
import { applyCredits, cancelCredits } from "../models/wallet.server";

export type Charge = {
  userId: string;
  key: string;
  refId: string;
  cost: number;
  reason: "message" | "gift";
};

/** True when charged (now, or before under this key); false: the balance does not cover it. */
export async function chargeSend(env: Pick<Env, "MEMBER_HUB">, c: Charge): Promise<boolean> {
  const r = await applyCredits(env, c.userId, { key: c.key, delta: -c.cost, reason: c.reason, refId: c.refId });
  return r.ok;
}

/** Gives back what `c` took (a store that failed after the charge); once, whatever the retries. */
export async function refundSend(env: Pick<Env, "MEMBER_HUB">, c: Charge): Promise<void> {
  await cancelCredits(env, c.userId, c.key, c.reason);
}
