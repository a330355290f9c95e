/**
 * Decision 190: a conversation's messages live in its ChatRoom's SQLite. The charge goes
 * through the sender's wallet by a key, a failed store gives it back once, the D1 overview is written
 * coalesced, the rules a send checks are cached until told they changed, and the messages D1 held
 * move into their rooms (resumable, idempotent, safe while members chat).
 */
import { env, evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  conversationView,
  listConversations,
  migrateMessagesPage,
  releaseHeldMessages,
  startConversation,
} from "../../app/models/chat.server";
import { block } from "../../app/models/blocks.server";
import { walletOp } from "../../app/wallet/wallet.server";
import type { ChatRoom } from "../../app/chat/room";
import type { HubEvent } from "../../app/chat/protocol";
import { hubStub } from "../../app/chat/stubs";
import { createMember, post } from "./fixtures";
import enChat from "../../locales/en/chat.json";
import {
  cid,
  cookieOf,
  count,
  openSocket,
  explainedBalance,
  flushed,
  ledgerCount,
  pair,
  PRICES,
  roomCount,
  roomRows,
  roomStub,
  legacyConversation as legacy,
} from "./chat-support";

const text = (conversationId: string, senderId: string, body: string, clientId = cid()) =>
  roomStub(env, conversationId).send({ conversationId, senderId, prices: PRICES, clientId, kind: "text", body });

const unreadInD1 = (conversationId: string, userId: string) =>
  count(
    "SELECT unread AS n FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2",
    conversationId,
    userId,
  );

describe("the charge and the store", () => {
  it("a send whose store fails is not charged (one transaction, decision 193); its retry is stored and charged once", async () => {
    const { alice, conversationId } = await pair({ credits: 3 });
    const clientId = cid();
    await roomStub(env, conversationId).failNextCommit();
    expect(await text(conversationId, alice.id, "lost", clientId)).toMatchObject({ ok: false, error: "generic" });
    expect(await roomCount(conversationId)).toBe(0);
    expect(await explainedBalance(alice.id)).toBe(3);
    // The charge was spent from the room's allowance in the message's transaction: rolled back with it.
    const key = `message:${conversationId}:${alice.id}:${clientId}`;
    expect(await walletOp(env, alice.id, key)).toBeNull();
    expect(await ledgerCount(alice.id, ["message"])).toBe(0);
    // The member sends again (same client id): stored once, charged once.
    for (let i = 0; i < 2; i++)
      expect(await text(conversationId, alice.id, "lost", clientId)).toMatchObject({ ok: true });
    expect(await roomCount(conversationId)).toBe(1);
    expect(await explainedBalance(alice.id)).toBe(2);
  });

  it("a retry of a stored message gets it back where a new send would be refused (short credits, a block): a send looks its client id up only then", async () => {
    const { alice, bob, conversationId } = await pair({ credits: PRICES.message });
    const clientId = cid();
    const first = await text(conversationId, alice.id, "hello", clientId);
    expect(first).toMatchObject({ ok: true, duplicate: false });
    const id = first.ok ? first.message.id : -1;
    // The credits are spent: a new message is refused, the retry answers the stored one, free.
    expect(await text(conversationId, alice.id, "more")).toMatchObject({ ok: false, error: "credits" });
    expect(await text(conversationId, alice.id, "hello", clientId)).toMatchObject({
      ok: true,
      duplicate: true,
      message: { id },
    });
    await block(env, bob.id, alice.id);
    expect(await text(conversationId, alice.id, "again")).toMatchObject({ ok: false, error: "blocked" });
    expect(await text(conversationId, alice.id, "hello", clientId)).toMatchObject({ ok: true, duplicate: true });
    expect(await roomCount(conversationId)).toBe(1);
    expect(await explainedBalance(alice.id)).toBe(0);
    expect(await ledgerCount(alice.id, ["message"])).toBe(1);
  });

  it("the no-JS form: a store that fails answers 503 with the translated error, nothing stored, nothing charged", async () => {
    const { alice, conversationId } = await pair({ credits: 3 });
    await roomStub(env, conversationId).failNextCommit();
    const res = await post(
      `/chats/${conversationId}`,
      { clientId: cid(), body: "lost" },
      { cookie: await cookieOf(alice.id) },
    );
    expect(res.status).toBe(503);
    expect(await res.text()).toContain(enChat.errors.generic);
    expect(await roomCount(conversationId)).toBe(0);
    expect(await explainedBalance(alice.id)).toBe(3);
  });

  it("20 racing sends of one member over 4 conversations with credits for 5: 5 stored, 5 charged, never below 0", async () => {
    const sender = await createMember({ paidUser: true, credits: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const s = await startConversation(env.DB, sender.id, (await createMember()).id);
      if (s.ok) ids.push(s.id);
    }
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => text(ids[i % 4]!, sender.id, `race ${i}`)));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok && r.error === "credits")).toHaveLength(15);
    const stored = await Promise.all(ids.map((id) => roomCount(id)));
    expect(stored.reduce((a, b) => a + b, 0)).toBe(5);
    expect(await explainedBalance(sender.id)).toBe(0);
  });
});

/**
 * The room's coalescing alarm held an hour away (a controlled clock): it runs only when a test runs it
 * (runDurableObjectAlarm) or flushes, never because a busy machine took 3 s over the sends.
 */
async function holdAlarm(conversationId: string) {
  await runInDurableObject(roomStub(env, conversationId), async (room: ChatRoom, state) => {
    const later = Date.now() + 3_600_000;
    await state.storage.setAlarm(later);
    (room as unknown as { alarmAt: number | null }).alarmAt = later;
  });
}

/**
 * Alice's first message to Bob, written and notified to Bob's badge socket at once; the room's alarm
 * then held, so what follows waits for an explicit overview write.
 */
async function firstBadge(credits: number) {
  const { alice, bob, conversationId } = await pair({ credits });
  const hub = await openSocket<HubEvent>("/ws/member", await cookieOf(bob.id));
  const notifies = () => hub.frames.filter((f) => f.kind === "message").length;
  expect(await text(conversationId, alice.id, "one")).toMatchObject({ ok: true });
  await hub.until!(() => notifies() === 1);
  await holdAlarm(conversationId);
  return { alice, bob, conversationId, hub, notifies };
}

describe("the overview in D1, written by the room", () => {
  it("a burst marks the badge notify once, and a message after the overview write marks it again (p50: no statement per message)", async () => {
    const { alice, bob, conversationId, hub, notifies } = await firstBadge(10);
    for (const body of ["two", "three", "four"])
      expect(await text(conversationId, alice.id, body)).toMatchObject({ ok: true });
    const pending = () =>
      runInDurableObject(
        roomStub(env, conversationId),
        (_room: ChatRoom, state) => state.storage.sql.exec("SELECT COUNT(*) AS n FROM pending_notify").one().n,
      );
    expect(await pending()).toBe(1);
    await roomStub(env, conversationId).flushOverview();
    await hub.until!(() => notifies() === 2);
    expect(await unreadInD1(conversationId, bob.id)).toBe(4);
    expect(await pending()).toBe(0);
    // After the write read the mark, the next message stores it again (not skipped as already marked).
    expect(await text(conversationId, alice.id, "five")).toMatchObject({ ok: true });
    expect(await pending()).toBe(1);
    await roomStub(env, conversationId).flushOverview();
    await hub.until!(() => notifies() === 3);
    expect(await unreadInD1(conversationId, bob.id)).toBe(5);
    hub.ws!.close();
  });

  it("a badge notify waiting for the coalesced write survives the room's eviction: sent once by the alarm", async () => {
    // The first message is written (and notified) at once; the second waits for the alarm.
    const { alice, bob, conversationId, hub, notifies } = await firstBadge(5);
    expect(await text(conversationId, alice.id, "two")).toMatchObject({ ok: true });
    expect(await unreadInD1(conversationId, bob.id)).toBe(1);
    // Evicted before its alarm: what it owed Bob's badge is in its storage, not in the lost memory.
    await evictDurableObject(roomStub(env, conversationId));
    expect(await runDurableObjectAlarm(roomStub(env, conversationId))).toBe(true);
    await hub.until!(() => notifies() === 2);
    expect(await unreadInD1(conversationId, bob.id)).toBe(2);
    // Once: nothing is left to send; another write sends no second badge (a marker arrives after it).
    await runInDurableObject(roomStub(env, conversationId), async (_room: ChatRoom, state) => {
      expect(state.storage.sql.exec("SELECT COUNT(*) AS n FROM pending_notify").one().n).toBe(0);
    });
    await roomStub(env, conversationId).flushOverview();
    await hubStub(env, bob.id).notify({ kind: "like" });
    await hub.until!((frames) => frames.some((f) => f.kind === "like"));
    expect(notifies()).toBe(2);
    hub.ws!.close();
  });

  it("messages stored before an eviction reach the chats list's last message, counted once (taken in by the write, not by each send)", async () => {
    const { alice, bob, conversationId } = await pair({ credits: 10 });
    expect(await text(conversationId, alice.id, "one")).toMatchObject({ ok: true });
    await holdAlarm(conversationId);
    expect(await text(conversationId, bob.id, "two")).toMatchObject({ ok: true });
    expect(await text(conversationId, alice.id, "three")).toMatchObject({ ok: true });
    // "two" made Alice's unread count 0 -> 1 (written at once); "three" waits for the write.
    expect((await listConversations(env.DB, bob.id))[0]).toMatchObject({ lastMessagePreview: "two" });
    await evictDurableObject(roomStub(env, conversationId));
    expect(await runDurableObjectAlarm(roomStub(env, conversationId))).toBe(true);
    expect((await listConversations(env.DB, bob.id))[0]).toMatchObject({ lastMessagePreview: "three", unread: 2 });
    await flushed(conversationId);
    expect((await roomStub(env, conversationId).stats()).messages).toBe(3);
  });

  it("100 messages: a few D1 writes, the list right once the room has written", async () => {
    const { alice, bob, conversationId } = await pair({ credits: 200 });
    await holdAlarm(conversationId);
    for (let i = 1; i <= 100; i++) expect(await text(conversationId, alice.id, `m${i}`)).toMatchObject({ ok: true });
    // At once: the first message (the conversation starts, Bob's unread 0 -> 1). The rest waits for the alarm.
    let stats = await roomStub(env, conversationId).stats();
    expect(stats.messages).toBe(100);
    expect(stats.overviewWrites).toBe(1);
    expect(await unreadInD1(conversationId, bob.id)).toBe(1);
    await flushed(conversationId);
    stats = await roomStub(env, conversationId).stats();
    expect(stats.overviewWrites).toBeLessThanOrEqual(3);
    // The rows D1 reported for those writes (overview, members, day counter, their indexes): a handful for 100.
    expect(stats.d1RowsWritten).toBeLessThanOrEqual(20);
    expect((await listConversations(env.DB, bob.id))[0]).toMatchObject({
      id: conversationId,
      unread: 100,
      lastMessagePreview: "m100",
    });
    // The console's count of messages per day came with the same write.
    expect(
      await count("SELECT COALESCE(SUM(messages), 0) AS n FROM chat_message_days WHERE day >= 0"),
    ).toBeGreaterThanOrEqual(100);
    // Reading is written at once.
    await roomStub(env, conversationId).read(conversationId, bob.id);
    expect(await unreadInD1(conversationId, bob.id)).toBe(0);
  });

  it("the alarm writes the coalesced overview by itself", async () => {
    const { alice, bob, conversationId } = await pair();
    await text(conversationId, alice.id, "one");
    await text(conversationId, alice.id, "two");
    expect(await unreadInD1(conversationId, bob.id)).toBe(1);
    // What the runtime does when the alarm is due.
    await runInDurableObject(roomStub(env, conversationId), async (room: ChatRoom, state) => {
      expect(await state.storage.getAlarm()).not.toBeNull();
      await room.alarm();
    });
    expect(await unreadInD1(conversationId, bob.id)).toBe(2);
  });
});

describe("rules cached in the room", () => {
  it("a block takes effect on the next send although the room cached the rules", async () => {
    const { alice, bob, conversationId } = await pair();
    expect(await text(conversationId, alice.id, "hello")).toMatchObject({ ok: true });
    await block(env, bob.id, alice.id);
    expect(await text(conversationId, alice.id, "still there?")).toMatchObject({ ok: false, error: "blocked" });
  });
});

describe("history and held messages in the room", () => {
  it("held rows are held in the room, released there, and the page shows them after", async () => {
    const { alice, bob, conversationId } = await pair({ status: "not_confirmed" });
    await text(conversationId, alice.id, "wait for me");
    expect(await roomRows(conversationId)).toMatchObject([{ body: "wait for me", held: 1 }]);
    expect((await conversationView(env, conversationId, bob.id, 90))!.messages).toHaveLength(0);
    await env.DB.prepare("UPDATE users SET status = 'confirmed' WHERE id = ?1").bind(alice.id).run();
    expect(await releaseHeldMessages(env, alice.id)).toBe(1);
    expect(await releaseHeldMessages(env, alice.id)).toBe(0);
    expect(await roomRows(conversationId)).toMatchObject([{ body: "wait for me", held: 0 }]);
    expect((await conversationView(env, conversationId, bob.id, 90))!.messages.map((m) => m.body)).toEqual([
      "wait for me",
    ]);
    expect(await unreadInD1(conversationId, bob.id)).toBe(1);
  });

  it("held messages a release could not reach are released by the sender's next message, in order", async () => {
    const { alice, bob, conversationId } = await pair({ status: "not_confirmed" });
    await text(conversationId, alice.id, "first, held");
    await env.DB.prepare("UPDATE users SET status = 'confirmed' WHERE id = ?1").bind(alice.id).run();
    const down = {
      idFromName: () => {
        throw new Error("object down");
      },
    } as unknown as typeof env.CHAT_ROOM;
    expect(await releaseHeldMessages({ ...env, CHAT_ROOM: down }, alice.id)).toBe(0);
    // The room still caches "held" for Alice until told; the confirmation's release would have told it.
    await roomStub(env, conversationId).forget();
    expect(await text(conversationId, alice.id, "second")).toMatchObject({ ok: true, message: { held: false } });
    expect((await conversationView(env, conversationId, bob.id, 90))!.messages.map((m) => m.body)).toEqual([
      "first, held",
      "second",
    ]);
    expect(await unreadInD1(conversationId, bob.id)).toBe(2);
  });

  it("the history limit is applied by the room", async () => {
    const { alice, bob, conversationId } = await pair();
    await text(conversationId, alice.id, "today");
    await runInDurableObject(roomStub(env, conversationId), async (_room: ChatRoom, state) => {
      state.storage.sql.exec("UPDATE messages SET created_at = created_at - 10 * 86400 WHERE body = 'today'");
    });
    await text(conversationId, alice.id, "now");
    const view = await conversationView(env, conversationId, bob.id, 7);
    expect(view!.messages.map((m) => m.body)).toEqual(["now"]);
    expect(view!.olderHidden).toBe(true);
  });
});

describe("moving D1's messages into the rooms", () => {
  const inD1 = (conversationId: string) =>
    count("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?1", conversationId);

  it("interrupted half-way, with members chatting, then run twice: every message once, in order, D1 emptied", async () => {
    // Other tests' leftovers first, so the pages below see only these conversations.
    while ((await migrateMessagesPage(env, 50)).more);
    const convs = [await legacy(3), await legacy(5), await legacy(2), await legacy(4)];
    // Half-way: one page of two conversations, then the run stops.
    const first = await migrateMessagesPage(env, 2);
    expect(first).toMatchObject({ conversations: 2, more: true });
    const moved = (await Promise.all(convs.map((c) => inD1(c.conversationId)))).filter((n) => n === 0).length;
    expect(moved).toBe(2);
    // A member writes in a conversation not moved yet: the room moves it first, the number follows on.
    const waiting: typeof convs = [];
    for (const c of convs) if ((await inD1(c.conversationId)) > 0) waiting.push(c);
    const live = await text(waiting[0]!.conversationId, waiting[0]!.alice.id, "new while moving");
    expect(live.ok && live.message.id).toBe((await roomCount(waiting[0]!.conversationId)) as number);
    // The rest, then the whole thing again: nothing moves twice.
    while ((await migrateMessagesPage(env, 2)).more);
    expect(await migrateMessagesPage(env, 2)).toMatchObject({ conversations: 0, more: false });
    for (const [i, c] of convs.entries()) {
      const n = [3, 5, 2, 4][i]!;
      expect(await inD1(c.conversationId)).toBe(0);
      const rows = await roomRows<{ seq: number; body: string }>(c.conversationId);
      const expected = Array.from({ length: n }, (_, k) => `old ${k + 1}`);
      if (c === waiting[0]) expected.push("new while moving");
      expect(rows.map((r) => r.body)).toEqual(expected);
      expect(rows.map((r) => r.seq)).toEqual(expected.map((_, k) => k + 1));
    }
    // The page reads them from the room.
    const c0 = convs.find((c) => c !== waiting[0])!;
    const view = await conversationView(env, c0.conversationId, c0.bob.id, 90);
    expect(view!.messages.map((m) => m.body)).toEqual(
      (await roomRows<{ body: string }>(c0.conversationId)).map((r) => r.body),
    );
    expect(view!.messages.length).toBeGreaterThan(1);
  });

  it("a room that moved its messages but crashed before deleting them in D1 deletes them on the next run, once", async () => {
    while ((await migrateMessagesPage(env, 50)).more);
    const c = await legacy(3);
    // Opened (moved in) by a reader, D1 untouched: as if the run stopped between the two steps.
    await roomRows(c.conversationId);
    expect(await inD1(c.conversationId)).toBe(3);
    await migrateMessagesPage(env, 50);
    expect(await inD1(c.conversationId)).toBe(0);
    expect(await roomCount(c.conversationId)).toBe(3);
    await roomStub(env, c.conversationId).migrate(c.conversationId);
    expect(await roomCount(c.conversationId)).toBe(3);
  });
});
