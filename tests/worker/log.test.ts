/** Failures that must not fail what caused them are logged (app/lib/log.server.ts), never dropped. */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../app/lib/env";
import { releaseHeldMessages, startConversation } from "../../app/models/chat.server";
import { notifyMember } from "../../app/models/hub.server";
import { createMember } from "./fixtures";
import { cid, pair, roomStub, PRICES } from "./chat-support";

/** The JSON log lines written so far with this event. */
function logged(spy: { mock: { calls: unknown[][] } }, event: string): Record<string, unknown>[] {
  return spy.mock.calls
    .map((args) => { try { return JSON.parse(String(args[0])) as Record<string, unknown>; } catch { return null; } })
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
      expect.objectContaining({ level: "error", requestId: "ray-log-test-1", path: "/dev/error", error: expect.stringContaining("Deliberate failure") }),
    ]);
  });

  it("the chat object logs a failed new-message mail (sent after the answer) with the conversation id", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const { alice, bob, conversationId } = await pair();
    const result = await runInDurableObject(roomStub(env, conversationId), async (room) => {
      // A production object without its MAIL binding: the mailer throws (the forced failure).
      Object.defineProperty(room, "env", { value: { ...env, ENVIRONMENT: "production", MAIL: undefined } satisfies Env, configurable: true });
      return room.send({ conversationId, senderId: alice.id, prices: PRICES, clientId: cid(), kind: "text", body: "hello" });
    });
    // The member's send succeeded all the same.
    expect(result.ok).toBe(true);
    // The mail runs in waitUntil: wait for its log line (bounded), not for a fixed time.
    await vi.waitFor(() => expect(logged(spy, "chat.mail_failed")).toHaveLength(1), { timeout: 5000, interval: 10 });
    const [line] = logged(spy, "chat.mail_failed");
    expect(line).toMatchObject({ level: "error", conversationId, memberId: bob.id });
    expect(String(line!.error)).toContain("MAIL binding missing");
  });

  it("releasing held messages logs an unreachable conversation object and still releases them", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const held = await createMember({ status: "not_confirmed", paidUser: true, credits: 10 });
    const bob = await createMember();
    const started = await startConversation(env.DB, held.id, bob.id);
    if (!started.ok) throw new Error(started.error);
    const sent = await roomStub(env, started.id).send({ conversationId: started.id, senderId: held.id, prices: PRICES, clientId: cid(), kind: "text", body: "held" });
    expect(sent.ok && sent.message.held).toBe(true);
    const broken = { idFromName: () => { throw new Error("object down"); } } as unknown as Env["CHAT_ROOM"];
    expect(await releaseHeldMessages({ ...env, CHAT_ROOM: broken }, held.id)).toBe(1);
    expect(logged(spy, "chat.deliver_failed")).toEqual([
      expect.objectContaining({ level: "error", conversationId: started.id, memberId: held.id, error: "Error: object down" }),
    ]);
  });

  it("a failed notify to a member's hub is logged with the member and conversation", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = { idFromName: () => { throw new Error("hub down"); } } as unknown as Env["MEMBER_HUB"];
    await expect(notifyMember({ MEMBER_HUB: broken }, "someone", { kind: "message", conversationId: "c1", senderId: "s1" })).resolves.toBeUndefined();
    expect(logged(spy, "hub.notify_failed")).toEqual([
      expect.objectContaining({ memberId: "someone", conversationId: "c1", kind: "message", error: "Error: hub down" }),
    ]);
  });
});
