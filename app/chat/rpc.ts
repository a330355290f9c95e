/**
 * What the Worker may call on the Durable Objects (RPC), typed apart from the classes so the
 * bindings (app/lib/env.ts) and the models need not import the objects: no model <-> object circle.
 * The classes declare `implements`, so the two cannot drift apart.
 */
import type { Restorable } from "./restore";
import type { HubEvent, SendInput, SendResult, ShownKind, WireMessage } from "./protocol";
import type { StoredMessage } from "./store";
import type {
  CreditReason,
  ReserveResult,
  RoomCharge,
  WalletOp,
  WalletPage,
  WalletResult,
  WalletRow,
  WalletStatement,
  WalletSummary,
} from "../wallet/types";

// The room's side of the allowance speaks in the wallet's row (app/chat/room.ts, charge.ts).
export type { ReserveResult, RoomCharge };

/** The conversation page's messages, from the conversation's object. */
export type RoomHistory = { messages: WireMessage[]; olderHidden: boolean };

/** One of a member's own messages, as the GDPR export lists it. */
export type SentByRow = {
  conversationId: string;
  seq: number;
  kind: ShownKind;
  body: string;
  giftId: string | null;
  creditsCharged: number;
  createdAt: number;
};

/** What a room counts: messages stored, and its D1 writes (the overview, coalesced). */
export type RoomStats = { messages: number; overviewWrites: number; d1RowsWritten: number };

/** The member's shown messages a team reply would answer: when each was written, whether paid and already given back. */
export type TeamWaiting = { createdAt: number; paid: boolean; returned: boolean }[];

export interface ChatRoomApi extends Rpc.DurableObjectBranded, Restorable {
  send(input: SendInput): Promise<SendResult>;
  read(conversationId: string, memberId: string): Promise<void>;
  hide(conversationId: string, memberId: string, hidden: boolean): Promise<boolean>;
  /** `opened`: the viewer opens the chat, so it is marked read in the same call. */
  history(
    conversationId: string,
    viewerId: string,
    chatHistoryDays: number,
    opened?: boolean,
  ): Promise<RoomHistory | null>;
  release(conversationId: string, senderId: string): Promise<{ count: number; receiverId: string | null }>;
  sentBy(conversationId: string, userId: string): Promise<SentByRow[]>;
  excerpt(conversationId: string, seq: number, n: number): Promise<WireMessage[]>;
  openers(conversationId: string, senderId: string, upTo: number): Promise<{ body: string; createdAt: number }[]>;
  /** A moderation decision removes a message from both members' views (decision 205); an appeal restores it. */
  removeMessage(conversationId: string, seq: number, senderId: string): Promise<StoredMessage | null>;
  restoreMessage(conversationId: string, m: StoredMessage): Promise<boolean>;
  migrate(conversationId: string): Promise<number>;
  wipe(conversationId: string): Promise<void>;
  forget(): Promise<void>;
  flushOverview(): Promise<void>;
  /** A team-run profile's conversation: paid messages unanswered for `hours` get their credits back (decision 201). */
  returnUnanswered(conversationId: string, hours: number, now?: number): Promise<{ credits: number; messages: number }>;
  /** What a team reply now would answer: the member's shown messages since the profile's last one (decision 210). */
  teamWaiting(conversationId: string): Promise<TeamWaiting | null>;
  /** The team-run profile is typing (the team writes in the console): the member sees it as from anyone. */
  teamTyping(conversationId: string, typing: boolean): Promise<boolean>;
  /** The bench's figures (the dev-only /dev/chat-stats route), with flushOverview. */
  stats(): Promise<RoomStats>;
  closeRevoked(memberId: string): Promise<number>;
  /** The spending allowance (decision 193): the wallet asks for what the room holds of `userId`'s credits back. */
  returnAllowance(conversationId: string, userId: string): Promise<{ gone: boolean }>;
  /** The charges (and returns) of `userId` the wallet has not confirmed yet; the wallet applies them by key. */
  pendingCharges(conversationId: string, userId: string): Promise<RoomCharge[]>;
}

export interface MemberHubApi extends Rpc.DurableObjectBranded, Restorable {
  notify(event: HubEvent): Promise<number>;
  closeRevoked(): Promise<number>;
  /** The wallet (decision 189, app/wallet/); `userId` is the object's own member (checked against its seed). */
  applyCredits(userId: string, op: WalletOp): Promise<WalletResult>;
  cancelCredits(userId: string, key: string, reason: CreditReason, at?: number): Promise<WalletResult>;
  walletBalance(userId: string): Promise<number>;
  walletLedger(userId: string, o?: WalletPage): Promise<WalletRow[]>;
  /** The balance and a page of the ledger at one instant. */
  walletStatement(userId: string, o?: WalletPage): Promise<WalletStatement>;
  walletSummary(userId: string): Promise<WalletSummary>;
  walletOp(userId: string, key: string): Promise<{ delta: number; cancelled: boolean } | null>;
  walletFlush(userId: string): Promise<number>;
  walletPurge(): Promise<void>;
  /** A room asks for a block of credits to spend locally (decision 193), once per key. */
  walletReserve(userId: string, room: string, key: string, need: number, want: number): Promise<ReserveResult>;
  /** A room's charges and returns, applied once each by key. */
  walletSettle(userId: string, room: string, rows: RoomCharge[]): Promise<void>;
}
