/**
 * A room's side of the spending allowance (decision 193): the sender's wallet (decision 189,
 * app/chat/hub.ts) grants the conversation's room a block of credits once per key; the room spends
 * it message by message in its own SQLite (the charge in the message's transaction) and sends the
 * charges, and later the unspent rest, back by their keys.
 */
import type { Env } from "../lib/env";
import type { ReserveResult, RoomCharge } from "./rpc";
import { hubStub } from "./stubs";
import type { ChargeRow } from "./store";

/** A block of this many messages' price is asked at once: one wallet round trip per block, not per message. */
export const ALLOWANCE_MESSAGES = 50;
/** An allowance not spent from for this long goes back to the wallet (the room's alarm). */
export const ALLOWANCE_IDLE_S = 60;

/** Asks the member's wallet to hold `want` credits (at least `need`) for this room; once per `key`. */
export function reserve(
  env: Pick<Env, "MEMBER_HUB">,
  userId: string,
  conversationId: string,
  key: string,
  need: number,
  want: number,
): Promise<ReserveResult> {
  return hubStub(env, userId).walletReserve(userId, conversationId, key, need, want);
}

/** Sends charges and returns to the member's wallet (applied once each by key). */
export function settleWith(
  env: Pick<Env, "MEMBER_HUB">,
  userId: string,
  conversationId: string,
  rows: ChargeRow[],
): Promise<void> {
  return hubStub(env, userId).walletSettle(userId, conversationId, rows.map(toRoomCharge));
}

export function toRoomCharge(r: ChargeRow): RoomCharge {
  return {
    key: r.key,
    kind: r.kind,
    credits: r.credits,
    reason: r.reason as RoomCharge["reason"],
    refId: r.ref_id,
    createdAt: r.created_at,
  };
}
