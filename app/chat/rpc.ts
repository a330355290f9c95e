/**
 * What the Worker may call on the Durable Objects (RPC), typed apart from the classes so the
 * bindings (app/lib/env.ts) and the models need not import the objects: no model <-> object circle.
 * The classes declare `implements`, so the two cannot drift apart.
 */
import type { HubEvent, MessageKind, SendInput, SendResult, WireMessage } from "./protocol";

/** The conversation page's messages, from the conversation's object. */
export type RoomHistory = { messages: WireMessage[]; olderHidden: boolean };

/** One of a member's own messages, as the GDPR export lists it. */
export type SentByRow = {
  conversationId: string;
  seq: number;
  kind: MessageKind;
  body: string;
  giftId: string | null;
  creditsCharged: number;
  createdAt: number;
};

export interface ChatRoomApi extends Rpc.DurableObjectBranded {
  send(input: SendInput): Promise<SendResult>;
  read(conversationId: string, memberId: string): Promise<void>;
  hide(conversationId: string, memberId: string, hidden: boolean): Promise<boolean>;
  history(conversationId: string, viewerId: string, chatHistoryDays: number): Promise<RoomHistory | null>;
  release(conversationId: string, senderId: string): Promise<{ count: number; receiverId: string | null }>;
  sentBy(conversationId: string, userId: string): Promise<SentByRow[]>;
  excerpt(conversationId: string, seq: number, n: number): Promise<WireMessage[]>;
  openers(conversationId: string, senderId: string, upTo: number): Promise<{ body: string; createdAt: number }[]>;
  migrate(conversationId: string): Promise<number>;
  wipe(conversationId: string): Promise<void>;
  forget(): Promise<void>;
  flushOverview(): Promise<void>;
  sockets(): Promise<Record<string, number>>;
  settled(): Promise<void>;
  closeRevoked(memberId: string): Promise<number>;
}

export interface MemberHubApi extends Rpc.DurableObjectBranded {
  notify(event: HubEvent): Promise<number>;
  closeRevoked(): Promise<number>;
}
