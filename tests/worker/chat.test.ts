import { env, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import {
  canStart,
  conversationView,
  listConversations,
  releaseHeldMessages,
  startConversation,
} from "../../app/models/chat.server";
import { createMember, get, post } from "./fixtures";
import {
  cid,
  connect,
  cookieOf,
  count,
  evictKeepingSockets,
  flushed,
  is,
  pair,
  roomCount,
  roomStub,
  PRICES,
  walletCredits,
} from "./chat-support";
// Remix's own wire format for loader data (a dependency of @remix-run/server-runtime).
import { decode } from "turbo-stream";

describe("the chat WebSocket", () => {
  it("refuses visitors, non-members, other origins and unknown conversations", async () => {
    const { alice, conversationId } = await pair();
    const stranger = await createMember();
    expect((await connect(conversationId, null)).status).toBe(403);
    expect((await connect(conversationId, await cookieOf(stranger.id))).status).toBe(404);
    expect((await connect("no-such-conversation", await cookieOf(alice.id))).status).toBe(404);
    expect((await connect(conversationId, await cookieOf(alice.id), { origin: "https://evil.example" })).status).toBe(
      403,
    );
    const ok = await connect(conversationId, await cookieOf(alice.id), { origin: "http://localhost" });
    expect(ok.status).toBe(101);
    ok.ws!.close(1000);
  });

  it("delivers messages and typing live, in one order for both members", async () => {
    const { alice, bob, conversationId } = await pair();
    const a = await connect(conversationId, await cookieOf(alice.id));
    const b = await connect(conversationId, await cookieOf(bob.id));
    await a.next!(is("backlog"));
    await b.next!(is("backlog"));

    a.ws!.send(JSON.stringify({ type: "typing", typing: true }));
    const typing = await b.next!(is("typing"));
    expect(typing).toMatchObject({ memberId: alice.id, typing: true });

    // Both send at once, interleaved; everyone sees the same ascending order.
    for (let i = 0; i < 10; i++) {
      a.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body: `a${i}` }));
      b.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body: `b${i}` }));
    }
    const twenty = (frames: typeof a.frames) => frames.filter((f) => f.type === "message").length >= 20;
    await Promise.all([a.until!(twenty), b.until!(twenty)]);
    const order = (s: typeof a) => s.frames.flatMap((f) => (f.type === "message" ? [f.message.id] : []));
    expect(order(a)).toHaveLength(20);
    expect(order(a)).toEqual(order(b));
    expect([...order(a)].sort((x, y) => x - y)).toEqual(order(a));
    // Each member's own messages keep the order they were sent in.
    const bodies = a.frames.flatMap((f) =>
      f.type === "message" && f.message.senderId === alice.id ? [f.message.body] : [],
    );
    expect(bodies).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`));
    // Typing never reached the typist and was never stored.
    expect(a.frames.some((f) => f.type === "typing")).toBe(false);
    a.ws!.close(1000);
    b.ws!.close(1000);
  });

  it("a retried client message id is acknowledged with the same message, stored and charged once", async () => {
    const { alice, conversationId } = await pair({ credits: 3 });
    const a = await connect(conversationId, await cookieOf(alice.id));
    const clientId = cid();
    const counted = vi.spyOn(env.METRICS!, "writeDataPoint");
    a.ws!.send(JSON.stringify({ type: "send", clientId, body: "hello" }));
    a.ws!.send(JSON.stringify({ type: "send", clientId, body: "hello" }));
    const first = await a.next!(is("ack"));
    const second = await a.next!(is("ack"), a.frames.indexOf(first) + 1);
    expect(second.message.id).toBe(first.message.id);
    // One message counted in Analytics Engine (decision 170), not the retry.
    expect(counted.mock.calls.filter(([point]) => point?.indexes?.[0] === "message")).toHaveLength(1);
    counted.mockRestore();
    expect(await roomCount(conversationId)).toBe(1);
    expect(await walletCredits(alice.id)).toBe(2);
    a.ws!.close(1000);
  });

  it("survives hibernation: after eviction the sockets still know their member and receive messages", async () => {
    const { alice, bob, conversationId } = await pair();
    const a = await connect(conversationId, await cookieOf(alice.id));
    const b = await connect(conversationId, await cookieOf(bob.id));
    await b.next!(is("backlog"));
    const stub = roomStub(env, conversationId);
    // A new instance: in-memory state is gone, the hibernated sockets are not.
    await evictKeepingSockets(stub, 2);
    a.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body: "after a nap" }));
    const got = await b.next!(is("message"));
    expect(got.message).toMatchObject({ senderId: alice.id, body: "after a nap" });
    expect(await stub.sockets()).toEqual({ [alice.id]: 1, [bob.id]: 1 });
    a.ws!.close(1000);
    b.ws!.close(1000);
  });

  it("resumes after a drop from the last seen id: the backlog holds exactly what was missed", async () => {
    const { alice, bob, conversationId } = await pair();
    const stub = roomStub(env, conversationId);
    const sent = [];
    for (let i = 0; i < 3; i++)
      sent.push(
        await stub.send({
          conversationId,
          senderId: alice.id,
          prices: PRICES,
          clientId: cid(),
          kind: "text",
          body: `m${i}`,
        }),
      );
    const lastSeen = sent[0]!.ok ? sent[0]!.message.id : 0;
    const b = await connect(conversationId, await cookieOf(bob.id), { after: lastSeen });
    const backlog = await b.next!(is("backlog"));
    expect(backlog.messages.map((m) => m.body)).toEqual(["m1", "m2"]);
    b.ws!.close(1000);
  });

  it("closing without a status (1005) is answered with 1000, other codes are echoed", async () => {
    const { alice, conversationId } = await pair();
    const a = await connect(conversationId, await cookieOf(alice.id));
    await a.next!(is("backlog"));
    a.ws!.close();
    expect(await a.closed).toBe(1000);
    const b = await connect(conversationId, await cookieOf(alice.id));
    await b.next!(is("backlog"));
    b.ws!.close(4001, "bye");
    expect(await b.closed).toBe(4001);
  });

  it("read receipts: reading sets unread to 0 and tells the sender", async () => {
    const { alice, bob, conversationId } = await pair();
    const a = await connect(conversationId, await cookieOf(alice.id));
    await a.next!(is("backlog"));
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "read me",
    });
    expect(
      await count(
        "SELECT unread AS n FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2",
        conversationId,
        bob.id,
      ),
    ).toBe(1);
    const b = await connect(conversationId, await cookieOf(bob.id));
    b.ws!.send(JSON.stringify({ type: "read" }));
    expect(await a.next!(is("read"))).toMatchObject({ memberId: bob.id });
    expect(
      await count(
        "SELECT unread AS n FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2",
        conversationId,
        bob.id,
      ),
    ).toBe(0);
    a.ws!.close(1000);
    b.ws!.close(1000);
  });
});

describe("chat rules", () => {
  it("free members start at most 2 conversations, exactly, even when starting 6 at once", async () => {
    const free = await createMember({ credits: 10 });
    const others = await Promise.all(Array.from({ length: 6 }, () => createMember()));
    const results = await Promise.all(others.map((o) => startConversation(env.DB, free.id, o.id)));
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.filter((r) => !r.ok && r.error === "premium")).toHaveLength(4);
    expect(await count("SELECT COUNT(*) AS n FROM conversations WHERE started_by = ?1", free.id)).toBe(2);
    // Conversations others started with them do not count; premium members have no limit.
    const other = await createMember({ paidUser: true });
    expect(await startConversation(env.DB, other.id, free.id)).toMatchObject({ ok: true });
    const premium = await createMember({ paidUser: true });
    const many = await Promise.all(others.map((o) => startConversation(env.DB, premium.id, o.id)));
    expect(many.every((r) => r.ok)).toBe(true);
  });

  it("a pair has one conversation, whoever starts it", async () => {
    const a = await createMember({ paidUser: true });
    const b = await createMember({ paidUser: true });
    const [x, y] = await Promise.all([startConversation(env.DB, a.id, b.id), startConversation(env.DB, b.id, a.id)]);
    expect(x.ok && y.ok && x.id === y.id).toBe(true);
  });

  it("blocked either way: no new conversation, no message, history still readable", async () => {
    const { alice, bob, conversationId } = await pair();
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?1, ?2)").bind(bob.id, alice.id).run();
    const r = await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hi",
    });
    expect(r).toMatchObject({ ok: false, error: "blocked" });
    const r2 = await roomStub(env, conversationId).send({
      conversationId,
      senderId: bob.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hi",
    });
    expect(r2).toMatchObject({ ok: false, error: "blocked" });
    const carol = await createMember();
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?1, ?2)").bind(carol.id, alice.id).run();
    expect(await canStart(env.DB, alice.id, carol.id)).toMatchObject({ ok: false, error: "blocked" });
    const html = await (await get(`/chats/${conversationId}`, { cookie: await cookieOf(alice.id) })).text();
    expect(html).toContain("You&#x27;re blocked by");
  });

  it("a deleted member's conversations disappear and cannot be written to", async () => {
    const { alice, bob, conversationId } = await pair();
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(bob.id).run();
    expect(await listConversations(env.DB, alice.id)).toHaveLength(0);
    expect((await get(`/chats/${conversationId}`, { cookie: await cookieOf(alice.id) })).status).toBe(404);
    const r = await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hi",
    });
    expect(r).toMatchObject({ ok: false, error: "deleted" });
  });

  it("message_length is enforced and empty messages refused", async () => {
    const { alice, conversationId } = await pair();
    const stub = roomStub(env, conversationId);
    expect(
      await stub.send({
        conversationId,
        senderId: alice.id,
        prices: PRICES,
        clientId: cid(),
        kind: "text",
        body: "x".repeat(1001),
      }),
    ).toMatchObject({ ok: false, error: "length" });
    expect(
      await stub.send({
        conversationId,
        senderId: alice.id,
        prices: PRICES,
        clientId: cid(),
        kind: "text",
        body: "   ",
      }),
    ).toMatchObject({ ok: false, error: "empty" });
    expect(
      await stub.send({
        conversationId,
        senderId: alice.id,
        prices: PRICES,
        clientId: cid(),
        kind: "text",
        body: "x".repeat(1000),
      }),
    ).toMatchObject({ ok: true });
  });

  it("an unconfirmed member's messages are held, then delivered once the address is confirmed", async () => {
    const { alice, bob, conversationId } = await pair({ status: "not_confirmed" });
    const b = await connect(conversationId, await cookieOf(bob.id));
    const a = await connect(conversationId, await cookieOf(alice.id));
    await b.next!(is("backlog"));
    a.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body: "held for now" }));
    const ack = await a.next!(is("ack"));
    expect(ack.message.held).toBe(true);
    // Charged, stored, but invisible to the receiver and not counted as unread.
    expect(await walletCredits(alice.id)).toBe(99);
    const bobView = await conversationView(env, conversationId, bob.id, 90);
    expect(bobView!.messages).toHaveLength(0);
    expect(bobView!.access.myUnread).toBe(0);
    expect((await conversationView(env, conversationId, alice.id, 90))!.messages).toHaveLength(1);
    expect(b.frames.some((f) => f.type === "message")).toBe(false);

    await env.DB.prepare("UPDATE users SET status = 'confirmed' WHERE id = ?1").bind(alice.id).run();
    expect(await releaseHeldMessages(env, alice.id)).toBe(1);
    const delivered = await b.next!(is("message"));
    expect(delivered.message).toMatchObject({ body: "held for now", held: false });
    const after = await conversationView(env, conversationId, bob.id, 90);
    expect(after!.messages.map((m) => m.body)).toEqual(["held for now"]);
    expect(after!.access.myUnread).toBe(1);
    expect((await listConversations(env.DB, bob.id))[0]).toMatchObject({
      lastMessagePreview: "held for now",
      unread: 1,
    });
    a.ws!.close(1000);
    b.ws!.close(1000);
  });

  it("e-mails an offline receiver once per unread burst, through the notification queue", async () => {
    const { alice, bob, conversationId } = await pair({}, { email: `bob-${cid()}@example.com` });
    const stub = roomStub(env, conversationId);
    const mails = () =>
      count('SELECT COUNT(*) AS n FROM mail_outbox WHERE "to" = (SELECT email FROM users WHERE id = ?1)', bob.id);
    const logged = (messageId: number) =>
      count(
        "SELECT COUNT(*) AS n FROM notification_log WHERE user_id = ?1 AND key LIKE ?2",
        bob.id,
        `%:${messageId}:mail`,
      );
    const send = (body: string) =>
      stub.send({ conversationId, senderId: alice.id, prices: PRICES, clientId: cid(), kind: "text", body });
    const one = await send("one");
    const two = await send("two");
    await vi.waitFor(async () => expect(await mails()).toBe(1), { timeout: 8000, interval: 100 });
    expect(one.ok && (await logged(one.message.id))).toBe(1);
    // Online receivers get no mail: nothing is even queued.
    const b = await connect(conversationId, await cookieOf(bob.id));
    b.ws!.send(JSON.stringify({ type: "read" }));
    await b.next!(is("backlog"));
    await vi.waitFor(async () =>
      expect(await count("SELECT unread AS n FROM conversation_members WHERE user_id = ?1", bob.id)).toBe(0),
    );
    const three = await send("three");
    b.ws!.close(1000);
    await b.closed;
    // Read, then a new message while offline: a new burst, a new mail. (Switched-off types: tests/worker/notify.test.ts.)
    // (Bob's read state lives in the room now, decision 190: read there, not in D1.)
    await stub.read(conversationId, bob.id);
    const four = await send("four");
    await vi.waitFor(async () => expect(await mails()).toBe(2), { timeout: 8000, interval: 100 });
    expect(four.ok && (await logged(four.message.id))).toBe(1);
    for (const r of [two, three]) expect(r.ok && (await logged(r.message.id))).toBe(0);
  });
});

describe("chat pages and calls", () => {
  it("GET /api/chats.php lists entries with conversation.id, profile.id and num_unread_messages", async () => {
    const { alice, bob, conversationId } = await pair();
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hey",
    });
    expect((await get("/api/chats.php")).status).toBe(403);
    const res = await get("/api/chats.php", { cookie: await cookieOf(bob.id) });
    expect(await res.json()).toEqual({
      chats: [{ conversation: { id: conversationId }, profile: { id: alice.id }, num_unread_messages: 1 }],
    });
  });

  it("DELETE /api/chat.php removes the chat for the member only; others' chats are not found", async () => {
    const { alice, bob, conversationId } = await pair();
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hey",
    });
    const del = (cookie: string | undefined, body: string) =>
      SELFfetch("/api/chat.php", { method: "DELETE", body, cookie });
    expect((await del(undefined, `conversation=${conversationId}`)).status).toBe(403);
    const stranger = await createMember();
    expect((await del(await cookieOf(stranger.id), `conversation=${conversationId}`)).status).toBe(404);
    const ok = await del(await cookieOf(bob.id), `conversation=${conversationId}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
    expect(await listConversations(env.DB, bob.id)).toHaveLength(0);
    expect(await listConversations(env.DB, alice.id)).toHaveLength(1);
  });

  it("the conversation page renders server-side, marks it read, and the no-JS form sends through the object", async () => {
    const { alice, bob, conversationId } = await pair();
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "first words",
    });
    const bobCookie = await cookieOf(bob.id);
    const page = await get(`/chats/${conversationId}`, { cookie: bobCookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("first words");
    expect(
      await count(
        "SELECT unread AS n FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2",
        conversationId,
        bob.id,
      ),
    ).toBe(0);
    const clientId = cid();
    const res = await post(`/chats/${conversationId}`, { clientId, body: "no script needed" }, { cookie: bobCookie });
    expect(res.status).toBe(302);
    // Re-posting the same form (a retry) stores nothing new.
    await post(`/chats/${conversationId}`, { clientId, body: "no script needed" }, { cookie: bobCookie });
    expect(await roomCount(conversationId, "body = 'no script needed'")).toBe(1);
    // Strangers and visitors see nothing.
    const stranger = await createMember();
    expect((await get(`/chats/${conversationId}`, { cookie: await cookieOf(stranger.id) })).status).toBe(404);
    expect((await get(`/chats/${conversationId}`)).status).toBe(302);
    expect(
      (await post(`/chats/${conversationId}`, { clientId: cid(), body: "x" }, { cookie: await cookieOf(stranger.id) }))
        .status,
    ).toBe(404);
  });

  it("out of credits: the spec's text and a link to buy credits", async () => {
    const { alice, conversationId } = await pair({ credits: 0 });
    const res = await post(
      `/chats/${conversationId}`,
      { clientId: cid(), body: "hello?" },
      { cookie: await cookieOf(alice.id) },
    );
    expect(res.status).toBe(402);
    const html = await res.text();
    expect(html).toContain("You do not have enough credits to send this message");
    expect(html).toContain('href="/credits"');
  });

  it("/members/{id}/chat starts a conversation with the first message; a free member's third gets the premium prompt", async () => {
    const free = await createMember({ credits: 10 });
    const cookie = await cookieOf(free.id);
    for (let i = 0; i < 2; i++) {
      const other = await createMember();
      expect((await get(`/members/${other.id}/chat`, { cookie })).status).toBe(200);
      const res = await post(`/members/${other.id}/chat`, { clientId: cid(), body: `hello ${i}` }, { cookie });
      expect(res.status).toBe(302);
      const location = res.headers.get("Location")!;
      expect(location).toMatch(/^\/chats\//);
      // Opening it again goes to the existing conversation.
      expect((await get(`/members/${other.id}/chat`, { cookie })).headers.get("Location")).toBe(location);
    }
    const third = await createMember();
    const page = await (await get(`/members/${third.id}/chat`, { cookie })).text();
    expect(page).toContain('href="/premium"');
    const res = await post(`/members/${third.id}/chat`, { clientId: cid(), body: "hello 3" }, { cookie });
    expect(res.status).toBe(403);
    expect(await count("SELECT COUNT(*) AS n FROM conversations WHERE started_by = ?1", free.id)).toBe(2);
  });

  it("visitors are sent to log in; a blocked member's chat page says so and offers no send form", async () => {
    expect((await get("/chats")).headers.get("Location")).toMatch(/^\/login\?redirectTo=%2Fchats/);
    const a = await createMember({ paidUser: true, credits: 10 });
    const b = await createMember({ name: "Blocker" });
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?1, ?2)").bind(b.id, a.id).run();
    const html = await (await get(`/members/${b.id}/chat`, { cookie: await cookieOf(a.id) })).text();
    expect(html).toContain("You cannot write to this member.");
    expect(html).not.toContain('name="body"');
    const res = await post(
      `/members/${b.id}/chat`,
      { clientId: cid(), body: "let me in" },
      { cookie: await cookieOf(a.id) },
    );
    expect(res.status).toBe(403);
    expect(await count("SELECT COUNT(*) AS n FROM conversations WHERE started_by = ?1", a.id)).toBe(0);
  });

  it("POST /api/chat.php intent=restore (the list's Undo) shows the member's own chat again, idempotently", async () => {
    const { alice, bob, conversationId } = await pair();
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hey",
    });
    const call = (method: string, cookie: string | undefined, body: string) =>
      SELFfetch("/api/chat.php", { method, body, cookie });
    const bobCookie = await cookieOf(bob.id);
    const aliceCookie = await cookieOf(alice.id);
    expect((await call("DELETE", bobCookie, `conversation=${conversationId}`)).status).toBe(200);
    expect((await call("DELETE", aliceCookie, `conversation=${conversationId}`)).status).toBe(200);
    const restore = `conversation=${conversationId}&intent=restore`;
    // Someone else's chat, no session, a missing intent: refused, nothing shown again.
    const stranger = await createMember();
    expect((await call("POST", await cookieOf(stranger.id), restore)).status).toBe(404);
    expect((await call("POST", undefined, restore)).status).toBe(403);
    expect((await call("POST", bobCookie, `conversation=${conversationId}`)).status).toBe(400);
    expect((await call("POST", bobCookie, "conversation=&intent=restore")).status).toBe(404);
    expect(await listConversations(env.DB, bob.id)).toHaveLength(0);
    // Bob's Undo: his row only; Alice's stays hidden. Twice is the same as once.
    for (let i = 0; i < 2; i++) {
      const ok = await call("POST", bobCookie, restore);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ ok: true });
    }
    expect(await listConversations(env.DB, bob.id)).toHaveLength(1);
    expect(await listConversations(env.DB, alice.id)).toHaveLength(0);
  });

  it("the chats page asks before a delete without JavaScript: ?confirm=<id> of the member's own chat only", async () => {
    const { alice, bob, conversationId } = await pair({ name: "Ingrid Asked" });
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hey",
    });
    const stranger = await createMember();
    const page = async (id: string, cookie: string) => (await get(`/chats?confirm=${id}`, { cookie })).text();
    const asked = await page(conversationId, await cookieOf(bob.id));
    expect(asked).toContain('id="chat-confirm-title"');
    expect(asked).toContain("Ingrid Asked");
    expect(await page(conversationId, await cookieOf(stranger.id))).not.toContain("chat-confirm-title");
    expect(await listConversations(env.DB, bob.id)).toHaveLength(1);
  });

  it("DELETE /api/chat.php also takes a JSON body", async () => {
    const { bob, conversationId } = await pair();
    const res = await SELF.fetch("http://localhost/api/chat.php", {
      method: "DELETE",
      headers: {
        Host: "localhost",
        Origin: "http://localhost",
        "Content-Type": "application/json",
        Cookie: await cookieOf(bob.id),
      },
      body: JSON.stringify({ conversation: conversationId }),
    });
    expect(res.status).toBe(200);
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM conversation_members WHERE user_id = ?1 AND hidden_at IS NOT NULL",
        bob.id,
      ),
    ).toBe(1);
  });

  it("the history limit hides older messages with the privacy notice", async () => {
    const { alice, bob, conversationId } = await pair();
    await env.DB.prepare(
      "INSERT INTO messages (conversation_id, sender_id, client_id, body, created_at) VALUES (?1, ?2, 'old-message-1', 'ancient history', unixepoch() - 91 * 86400)",
    )
      .bind(conversationId, alice.id)
      .run();
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "fresh news",
    });
    const html = await (await get(`/chats/${conversationId}`, { cookie: await cookieOf(bob.id) })).text();
    expect(html).toContain("Older messages are no longer visible to protect your privacy.");
    expect(html).toContain("fresh news");
    expect(html).not.toContain("ancient history");
  });

  it("the overview lists conversations with name, last message and unread count", async () => {
    const { alice, bob, conversationId } = await pair({ name: "Alice Overview" });
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "gift",
      giftId: "rose",
    });
    const html = await (await get("/chats", { cookie: await cookieOf(bob.id) })).text();
    expect(html).toContain("Alice Overview");
    expect(html).toContain("🌹");
    expect(html).toContain(`/chats/${conversationId}`);
  });

  it("the Messages badge does not count the conversation the member is reading (page and revalidation)", async () => {
    const { alice, bob, conversationId } = await pair();
    const carol = await createMember({ paidUser: true, credits: 100 });
    const other = await startConversation(env.DB, carol.id, bob.id);
    if (!other.ok) throw new Error("could not start");
    for (let i = 0; i < 2; i++)
      await roomStub(env, conversationId).send({
        conversationId,
        senderId: alice.id,
        prices: PRICES,
        clientId: cid(),
        kind: "text",
        body: `a${i}`,
      });
    await roomStub(env, other.id).send({
      conversationId: other.id,
      senderId: carol.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "c",
    });
    // The room writes the overview coalesced (decision 190); its alarm would within seconds.
    await flushed(conversationId, other.id);
    const cookie = await cookieOf(bob.id);
    const badge = (html: string) => /data-badge="messages"><span aria-hidden="true">([^<]+)</.exec(html)?.[1] ?? null;
    expect(badge(await (await get("/chats", { cookie })).text())).toBe("3");
    // Reading Alice's chat: only Carol's message counts.
    expect(badge(await (await get(`/chats/${conversationId}`, { cookie })).text())).toBe("1");
    // A message arriving while reading, then the page's revalidation: still only Carol's.
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "live",
    });
    await flushed(conversationId);
    const decoded = await decode((await get(`/chats/${conversationId}.data?_routes=root`, { cookie })).body!);
    await decoded.done;
    const root = (decoded.value as Record<string, { data: { member: { unreadMessages: number } } }>).root!.data;
    expect(root.member.unreadMessages).toBe(1);
  });
});

function SELFfetch(path: string, o: { method: string; body: string; cookie?: string }) {
  const headers: Record<string, string> = {
    Host: "localhost",
    Origin: "http://localhost",
    "Content-Type": "application/x-www-form-urlencoded",
  };
  if (o.cookie) headers.Cookie = o.cookie;
  return SELF.fetch(`http://localhost${path}`, { method: o.method, headers, body: o.body });
}
