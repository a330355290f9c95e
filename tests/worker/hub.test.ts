import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { HubEvent } from "../../app/chat/protocol";
import { releaseHeldMessages, startConversation } from "../../app/models/chat.server";
import { hubStub } from "../../app/chat/stubs";
import { notifyMember } from "../../app/models/hub.server";
import { applyCredits } from "../../app/wallet/wallet.server";
import { createMember, post } from "./fixtures";
import { cid, connect, cookieOf, evictKeepingSockets, openSocket, pair, roomStub, PRICES } from "./chat-support";

const hub = async (memberId: string | null, o: { origin?: string } = {}) =>
  openSocket<HubEvent>("/ws/member", memberId ? await cookieOf(memberId) : null, o);
const message = (f: HubEvent): f is Extract<HubEvent, { kind: "message" }> => f.kind === "message";
const liked = (f: HubEvent): f is Extract<HubEvent, { kind: "like" }> => f.kind === "like";

describe("the member's hub socket (/ws/member)", () => {
  it("refuses visitors, other origins and plain requests", async () => {
    const alice = await createMember();
    expect((await hub(null)).status).toBe(403);
    expect((await hub(alice.id, { origin: "https://evil.example" })).status).toBe(403);
    const plain = await fetchPlain(await cookieOf(alice.id));
    expect(plain).toBe(426);
    const ok = await hub(alice.id, { origin: "http://localhost" });
    expect(ok.status).toBe(101);
    ok.ws!.close(1000);
  });

  it("tells every open tab of the receiver when a message arrives over the chat socket, and nobody else", async () => {
    const { alice, bob, conversationId } = await pair();
    const carol = await createMember();
    const [bobTab1, bobTab2, aliceHub, carolHub] = await Promise.all([
      hub(bob.id),
      hub(bob.id),
      hub(alice.id),
      hub(carol.id),
    ]);
    const a = await connect(conversationId, await cookieOf(alice.id));
    a.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body: "hello Bob" }));
    const expected = { kind: "message", conversationId, senderId: alice.id };
    expect(await bobTab1.next!(message)).toEqual(expected);
    expect(await bobTab2.next!(message)).toEqual(expected);
    // Carol's first event is her own like: the message to Bob never reached her; the sender hears nothing either.
    await post(`/members/${carol.id}`, { intent: "like" }, { cookie: await cookieOf(alice.id) });
    expect(carolHub.frames.length === 0 || carolHub.frames[0]!.kind === "like").toBe(true);
    expect(await carolHub.next!(liked)).toEqual({ kind: "like" });
    expect(carolHub.frames).toEqual([{ kind: "like" }]);
    expect(aliceHub.frames).toEqual([]);
    for (const s of [bobTab1, bobTab2, aliceHub, carolHub, a]) s.ws!.close(1000);
  });

  it("tells the receiver about a message sent without JavaScript (form post through the room's RPC)", async () => {
    const { alice, bob, conversationId } = await pair();
    const b = await hub(bob.id);
    const res = await post(
      `/chats/${conversationId}`,
      { intent: "send", clientId: cid(), body: "no js" },
      { cookie: await cookieOf(alice.id) },
    );
    expect(res.status).toBeLessThan(400);
    expect(await b.next!(message)).toEqual({ kind: "message", conversationId, senderId: alice.id });
    b.ws!.close(1000);
  });

  it("tells the receiver when held messages are released, not while they are held", async () => {
    const held = await createMember({ status: "not_confirmed", paidUser: true, credits: 10 });
    const bob = await createMember();
    const started = await startConversation(env.DB, held.id, bob.id);
    if (!started.ok) throw new Error(started.error);
    const b = await hub(bob.id);
    const sent = await roomStub(env, started.id).send({
      conversationId: started.id,
      senderId: held.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "held",
    });
    expect(sent.ok && sent.message.held).toBe(true);
    expect(await releaseHeldMessages(env, held.id)).toBe(1);
    await b.next!(message);
    // The first and only event is the release (the held send told no one).
    expect(b.frames).toEqual([{ kind: "message", conversationId: started.id, senderId: held.id }]);
    b.ws!.close(1000);
  });

  it("tells the liked member about a new like, once", async () => {
    const alice = await createMember();
    const bob = await createMember();
    const b = await hub(bob.id);
    const cookie = await cookieOf(alice.id);
    await post(`/members/${bob.id}`, { intent: "like" }, { cookie });
    expect(await b.next!(liked)).toEqual({ kind: "like" });
    // Liking again stores nothing and tells no one; a message afterwards is the next event.
    await post(`/members/${bob.id}`, { intent: "like" }, { cookie });
    const started = await startConversation(env.DB, alice.id, bob.id);
    if (!started.ok) throw new Error(started.error);
    // Credits through the wallet: the like's page already opened it, so a D1 edit would not count (decision 189).
    await env.DB.prepare("UPDATE users SET paid_user = 1 WHERE id = ?1").bind(alice.id).run();
    await applyCredits(env, alice.id, { key: `adjustment:${cid()}`, delta: 10, reason: "adjustment" });
    await roomStub(env, started.id).send({
      conversationId: started.id,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hi",
    });
    await b.next!(message);
    expect(b.frames.map((f) => f.kind)).toEqual(["like", "message"]);
    b.ws!.close(1000);
  });

  it("tells the liked member about a like from the swipe game", async () => {
    const me = await createMember({ gender: "male" });
    const her = await createMember();
    const h = await hub(her.id);
    expect(
      (await post("/swipe-game", { intent: "like", targetId: her.id }, { cookie: await cookieOf(me.id) })).status,
    ).toBe(302);
    expect(await h.next!(liked)).toEqual({ kind: "like" });
    h.ws!.close(1000);
  });

  it("survives hibernation: after eviction a notify still reaches the member's socket", async () => {
    const { alice, bob, conversationId } = await pair();
    const b = await hub(bob.id);
    await evictKeepingSockets(hubStub(env, bob.id), 1);
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "after a nap",
    });
    expect(await b.next!(message)).toEqual({ kind: "message", conversationId, senderId: alice.id });
    b.ws!.close(1000);
  });

  it("a notify to an unreachable hub resolves quietly (what caused it never fails)", async () => {
    const broken = {
      idFromName: () => {
        throw new Error("down");
      },
    } as unknown as typeof env.MEMBER_HUB;
    await expect(notifyMember({ MEMBER_HUB: broken }, "someone", { kind: "like" })).resolves.toBeUndefined();
  });
});

async function fetchPlain(cookie: string) {
  const { SELF } = await import("cloudflare:test");
  return (await SELF.fetch("http://localhost/ws/member", { headers: { Cookie: cookie, Host: "localhost" } })).status;
}
