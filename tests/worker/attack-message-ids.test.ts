/**
 * Decision 089: message ids sent to clients must not be the site's global sequence (they would
 * tell anyone how many messages the whole site carries). Every way a message reaches a client
 * (socket frames, the chat page's loader, the resume backlog, the no-JS post, the data export)
 * numbers it within its conversation.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ServerFrame } from "../../app/chat/protocol";
import { cid, connect, cookieOf, is, pair, roomRows, roomStub, PRICES } from "./chat-support";
import { get } from "./fixtures";
import { send } from "./accounts-support";
// Remix's own wire format for loader data (a dependency of @remix-run/server-runtime).
import { decode } from "turbo-stream";

/**
 * The message rows of a conversation: in D1 before decision 190 they carried the site's sequence; in
 * the conversation's object there is no site-wide id at all, the row's key is its number.
 */
const rowIds = async (conversationId: string) => (await roomRows<{ seq: number }>(conversationId)).map((r) => r.seq);

describe("message ids on the wire are per conversation, not the site's sequence", () => {
  it("a new conversation's messages are 1, 2, 3… on the socket, in the loader and in the backlog, whatever else the site carries", async () => {
    // Traffic elsewhere on the site first.
    const busy = await pair();
    for (let i = 0; i < 4; i++)
      await roomStub(env, busy.conversationId).send({
        conversationId: busy.conversationId,
        senderId: busy.alice.id,
        prices: PRICES,
        clientId: cid(),
        kind: "text",
        body: `elsewhere ${i}`,
      });

    const { alice, bob, conversationId } = await pair();
    const b = await connect(conversationId, await cookieOf(bob.id));
    await b.next!(is("backlog"));
    const a = await connect(conversationId, await cookieOf(alice.id));
    await a.next!(is("backlog"));
    for (const body of ["one", "two", "three"]) a.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body }));
    await a.until!((f) => f.filter((x) => x.type === "ack").length === 3);
    await b.until!((f) => f.filter((x) => x.type === "message").length === 3);
    const acked = a.frames.flatMap((f: ServerFrame) => (f.type === "ack" ? [f.message.id] : []));
    const received = b.frames.flatMap((f: ServerFrame) => (f.type === "message" ? [f.message.id] : []));
    expect(acked).toEqual([1, 2, 3]);
    expect(received).toEqual([1, 2, 3]);
    // The stored rows have no site-wide sequence any more (decision 190): their key is the number itself.
    const rows = await rowIds(conversationId);
    expect(rows).toEqual(acked);

    // The chat page's loader, as a client-side navigation fetches it (single fetch, turbo-stream).
    const loader = await get(`/chats/${conversationId}.data?_routes=${encodeURIComponent("routes/chats.$id")}`, {
      cookie: await cookieOf(bob.id),
    });
    expect(loader.status).toBe(200);
    const decoded = await decode(loader.body!);
    await decoded.done;
    const data = (decoded.value as Record<string, { data: { messages: { id: number }[] } }>)["routes/chats.$id"]!.data;
    expect(data.messages.map((m) => m.id)).toEqual([1, 2, 3]);

    // Resuming after message 1 brings 2 and 3.
    const again = await connect(conversationId, await cookieOf(bob.id), { after: 1 });
    expect((await again.next!(is("backlog"))).messages.map((m) => [m.id, m.body])).toEqual([
      [2, "two"],
      [3, "three"],
    ]);
    for (const s of [a, b, again]) s.ws!.close(1000);
  });

  it("the no-JavaScript send and the member's data export name no global message id", async () => {
    const { alice, conversationId } = await pair();
    const cookie = await cookieOf(alice.id);
    const res = await send(`/chats/${conversationId}`, { body: "sent without script", clientId: cid() }, { cookie });
    expect(res.status).toBe(302);
    const [rowId] = await rowIds(conversationId);
    const exported = await (await get("/settings/data", { cookie })).text();
    expect(exported).toContain(`message:${conversationId}:1`);
    expect(exported).not.toContain(`"message:${rowId}"`);
  });
});
