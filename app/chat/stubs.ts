/** The Durable Object stubs: a conversation's ChatRoom and a member's MemberHub, by name. */
import type { Env } from "../lib/env";

export function roomStub(env: Pick<Env, "CHAT_ROOM">, conversationId: string) {
  return env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(conversationId));
}

export function hubStub(env: Pick<Env, "MEMBER_HUB">, userId: string) {
  return env.MEMBER_HUB.get(env.MEMBER_HUB.idFromName(userId));
}
