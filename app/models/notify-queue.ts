/**
 * Producing notification events (the NOTIFY_QUEUE of wrangler.toml). Kept apart from notify.server.ts so
 * the chat's Durable Object and the likes do not pull the translations into their part of the bundle.
 */
import type { Env } from "~/lib/env";
import { logError } from "~/lib/log.server";
import type { NotifyEvent, NotifyMessage, QueuedMessage } from "./notify-events";

export type QueueEnv = Pick<Env, "NOTIFY_QUEUE">;

/** The ids an operator searches the log by. */
export function eventFields(event: QueuedMessage) {
  switch (event.kind) {
    case "message":
      return { kind: event.kind, conversationId: event.conversationId, memberId: event.receiverId };
    case "like":
      return { kind: event.kind, memberId: event.likedId };
    case "campaign_page":
      return { kind: event.kind, campaignId: event.campaignId };
    default:
      return { kind: event.kind, memberId: event.userId };
  }
}

/**
 * Puts an event on the queue; never rejects (a lost notification must not fail a message or a like),
 * but a failure is logged.
 */
export async function enqueue(env: QueueEnv, event: NotifyMessage): Promise<void> {
  try {
    await env.NOTIFY_QUEUE.send(event, { contentType: "json" });
  } catch (e) {
    logError("notify.enqueue_failed", e, eventFields(event));
  }
}

/** Many events (the cron's digests, a campaign), 100 per call as sendBatch allows. */
export async function enqueueAll(env: QueueEnv, events: NotifyEvent[]) {
  for (let i = 0; i < events.length; i += 100) {
    await env.NOTIFY_QUEUE.sendBatch(events.slice(i, i + 100).map((body) => ({ body, contentType: "json" as const })));
  }
}
