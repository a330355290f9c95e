/**
 * The member's notification channel (app/chat/hub.ts): tells every open tab of a member that their
 * counts changed. Best effort: a failed notify never fails what caused it (the tabs' periodic
 * re-fetch catches up), and with an execution context it runs after the response.
 */
import type { HubEvent } from "../chat/protocol";
import { hubStub } from "../chat/stubs";
import type { Env } from "../lib/env";
import { logError } from "../lib/log.server";

export type HubEnv = Pick<Env, "MEMBER_HUB">;
export type Later = Pick<ExecutionContext, "waitUntil">;

/** Notifies the member's hub; never rejects. */
export async function notifyMember(env: HubEnv, userId: string, event: HubEvent): Promise<void> {
  if (!userId) return;
  try {
    await hubStub(env, userId).notify(event);
  } catch (e) {
    // Best effort (see above), but never silent.
    logError("hub.notify_failed", e, {
      memberId: userId,
      kind: event.kind,
      conversationId: "conversationId" in event ? event.conversationId : undefined,
    });
  }
}

/** Notifies after the response when `later` is given (waitUntil), else now; never rejects. */
export function notifyMemberLater(
  env: HubEnv,
  later: Later | undefined,
  userId: string,
  event: HubEvent,
): Promise<void> {
  const done = notifyMember(env, userId, event);
  if (!later) return done;
  later.waitUntil(done);
  return Promise.resolve();
}
