/** Failures that must not fail what caused them are logged (app/lib/log.server.ts), never dropped. */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../app/lib/env";
import { releaseHeldMessages, startConversation } from "../../app/models/chat.server";
import { notifyMember } from "../../app/models/hub.server";
import { handleNotifyBatch } from "../../app/models/notify.server";
import type { NotifyEvent } from "../../app/models/notify-events";
import { createMember } from "./fixtures";
import { cid, pair, roomStub, PRICES } from "./chat-support";

/** The JSON log lines written so far with this event. */
function logged(spy: { mock: { calls: unknown[][] } }, event: string): Record<string, unknown>[] {
  return spy.mock.calls
    .map((args) => {
      try {
        return JSON.parse(String(args[0])) as Record<string, unknown>;
      } catch {
        return null;
      }
    })
    .filter((line): line is Record<string, unknown> => line?.event === event);
}

afterEach(() => vi.restoreAllMocks());

describe("failures are logged with their request, conversation or member id", () => {
  it("a failing loader is logged once with the request's id (cf-ray) and path", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await SELF.fetch("http://localhost/dev/error", { headers: { "cf-ray": "ray-log-test-1" } });
    expect(res.status).toBe(500);
    await res.text();
    expect(logged(spy, "request.failed")).toEqual([
      expect.objectContaining({
        level: "error",
        requestId: "ray-log-test-1",
        path: "/dev/error",
        error: expect.stringContaining("Deliberate failure"),
      }),
    ]);
  });

  it("the chat object logs a notification it could not queue (after the answer) with the conversation id", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const { alice, bob, conversationId } = await pair();
    const result = await runInDurableObject(roomStub(env, conversationId), async (room) => {
      // The forced failure: the queue refuses the event.
      const NOTIFY_QUEUE = { send: () => Promise.reject(new Error("queue down")) } as unknown as Env["NOTIFY_QUEUE"];
      Object.defineProperty(room, "env", { value: { ...env, NOTIFY_QUEUE } satisfies Env, configurable: true });
      return room.send({
        conversationId,
        senderId: alice.id,
        prices: PRICES,
        clientId: cid(),
        kind: "text",
        body: "hello",
      });
    });
    // The member's send succeeded all the same.
    expect(result.ok).toBe(true);
    // The event is queued in waitUntil: wait for its log line (bounded), not for a fixed time.
    await vi.waitFor(() => expect(logged(spy, "notify.enqueue_failed")).toHaveLength(1), {
      timeout: 5000,
      interval: 10,
    });
    expect(logged(spy, "notify.enqueue_failed")[0]).toMatchObject({
      level: "error",
      kind: "message",
      conversationId,
      memberId: bob.id,
      error: "Error: queue down",
    });
  });

  it("the queue consumer logs a failed delivery with the member id and retries it", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const { alice, bob, conversationId } = await pair();
    const sent = await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hi",
    });
    if (!sent.ok) throw new Error(sent.error);
    const retried: number[] = [];
    const message = {
      body: { kind: "message", conversationId, senderId: alice.id, receiverId: bob.id, messageId: sent.message.id },
      attempts: 2,
      ack: () => {},
      retry: (o?: { delaySeconds?: number }) => retried.push(o?.delaySeconds ?? 0),
    };
    // A production Worker without its MAIL binding: the mailer throws (the forced failure).
    const broken = { ...env, ENVIRONMENT: "production", MAIL: undefined } as unknown as Env;
    await handleNotifyBatch({ messages: [message] } as unknown as MessageBatch<NotifyEvent>, broken);
    expect(retried).toHaveLength(1);
    expect(logged(spy, "notify.delivery_failed")).toEqual([
      expect.objectContaining({ level: "error", kind: "message", conversationId, memberId: bob.id, attempts: 2 }),
    ]);
  });

  // The held messages live in the conversation's object now (decision 190): an unreachable one cannot
  // release them; it is logged, the confirmation goes on, and a later release delivers them.
  it("releasing held messages logs an unreachable conversation object; a later release delivers them", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const held = await createMember({ status: "not_confirmed", paidUser: true, credits: 10 });
    const bob = await createMember();
    const started = await startConversation(env.DB, held.id, bob.id);
    if (!started.ok) throw new Error(started.error);
    const sent = await roomStub(env, started.id).send({
      conversationId: started.id,
      senderId: held.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "held",
    });
    expect(sent.ok && sent.message.held).toBe(true);
    const broken = {
      idFromName: () => {
        throw new Error("object down");
      },
    } as unknown as Env["CHAT_ROOM"];
    expect(await releaseHeldMessages({ ...env, CHAT_ROOM: broken }, held.id)).toBe(0);
    expect(await releaseHeldMessages(env, held.id)).toBe(1);
    expect(logged(spy, "chat.release_failed")).toEqual([
      expect.objectContaining({
        level: "error",
        conversationId: started.id,
        memberId: held.id,
        error: "Error: object down",
      }),
    ]);
  });

  it("a failed notify to a member's hub is logged with the member and conversation", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = {
      idFromName: () => {
        throw new Error("hub down");
      },
    } as unknown as Env["MEMBER_HUB"];
    await expect(
      notifyMember({ MEMBER_HUB: broken }, "someone", { kind: "message", conversationId: "c1", senderId: "s1" }),
    ).resolves.toBeUndefined();
    expect(logged(spy, "hub.notify_failed")).toEqual([
      expect.objectContaining({ memberId: "someone", conversationId: "c1", kind: "message", error: "Error: hub down" }),
    ]);
  });
});
