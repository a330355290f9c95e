/**
 * What the Worker may call on the Durable Objects (RPC), typed apart from the classes so the
 * bindings (app/lib/env.ts) and the models need not import the objects: no model <-> object circle.
 * The classes declare `implements`, so the two cannot drift apart.
 */
import type { HubEvent, SendInput, SendResult, WireMessage } from "./protocol";

export interface ChatRoomApi extends Rpc.DurableObjectBranded {
  send(input: SendInput): Promise<SendResult>;
  read(conversationId: string, memberId: string): Promise<void>;
  deliver(messages: WireMessage[]): Promise<void>;
  sockets(): Promise<Record<string, number>>;
  settled(): Promise<void>;
  closeRevoked(memberId: string): Promise<number>;
}

export interface MemberHubApi extends Rpc.DurableObjectBranded {
  notify(event: HubEvent): Promise<number>;
  closeRevoked(): Promise<number>;
}
