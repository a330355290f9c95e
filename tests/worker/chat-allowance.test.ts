/**
 * Decision 193: a conversation's room spends a member's credits from an allowance their wallet
 * granted it (one wallet round trip per block of messages, not per message). Exactness unchanged:
 * racing sends never spend more than the member has, a retried client id is charged once, an
 * allowance goes back exactly once (also across an eviction and a lost answer), and whatever needs
 * credits a room holds (a spend elsewhere, a refund, a chargeback) calls them back first.
 */
import { env, evictDurableObject, runInDurableObject, SELF } from "cloudflare:test";
import type { ChatRoom } from "../../app/chat/room";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { hubStub } from "../../app/chat/stubs";
import { ALLOWANCE_IDLE_S } from "../../app/chat/charge";
import { startConversation } from "../../app/models/chat.server";
import { ownPayment } from "../../app/models/payments/views.server";
import { requestRefund } from "../../app/models/payments/refunds.server";
import type { BrandWithCompany } from "../../app/models/brand.server";
import { applyCredits, walletLedger } from "../../app/wallet/wallet.server";
import refundPending from "./mollie/refund-pending.json";
import { createMember } from "./fixtures";
import { paidPurchase } from "./payments-support";
import { cid, explainedBalance, ledgerCount, pair, PRICES, roomCount, roomStub } from "./chat-support";

const P = PRICES.message;

const text = (conversationId: string, senderId: string, body: string, clientId = cid()) =>
  roomStub(env, conversationId).send({ conversationId, senderId, prices: PRICES, clientId, kind: "text", body });

/** What the member's wallet holds for rooms, room by room (its own SQLite). */
function holds(userId: string): Promise<Record<string, number>> {
  return runInDurableObject(hubStub(env, userId), async (_hub, state) =>
    Object.fromEntries(
      state.storage.sql
        .exec<{ room: string; held: number }>("SELECT room, held FROM wallet_holds")
        .toArray()
        .map((r) => [r.room, r.held]),
    ),
  );
}

/** The room's own view of a member's allowance and its unconfirmed rows. */
function roomSide(conversationId: string, userId: string) {
  return runInDurableObject(roomStub(env, conversationId), async (_room, state) => ({
    amount:
      state.storage.sql.exec<{ amount: number }>("SELECT amount FROM allowances WHERE user_id = ?", userId).toArray()[0]
        ?.amount ?? 0,
    unsettled: state.storage.sql.exec("SELECT key FROM charges WHERE user_id = ?", userId).toArray().length,
  }));
}

describe("spending from the room's allowance", () => {
  it("20 racing sends in one conversation with credits for 5: 5 stored, 5 charged, the ledger explains 0", async () => {
    const { alice, conversationId } = await pair({ credits: 5 * P });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => text(conversationId, alice.id, `race ${i}`)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok && r.error === "credits")).toHaveLength(15);
    expect(await roomCount(conversationId)).toBe(5);
    expect(await explainedBalance(alice.id)).toBe(0);
    // Each message's charge is one row of the member's ledger, named by its number.
    const rows = await walletLedger(env, alice.id, { reasons: ["message"] });
    expect(rows.map((r) => r.refId).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `message:${conversationId}:${n}`));
  });

  it("a retried client id (racing and after) is stored once and charged once", async () => {
    const { alice, conversationId } = await pair({ credits: 10 * P });
    const clientId = cid();
    const first = await Promise.all([1, 2, 3].map(() => text(conversationId, alice.id, "once", clientId)));
    expect(first.every((r) => r.ok)).toBe(true);
    expect(await text(conversationId, alice.id, "once", clientId)).toMatchObject({ ok: true, duplicate: true });
    expect(await roomCount(conversationId)).toBe(1);
    expect(await ledgerCount(alice.id, ["message"])).toBe(1);
    expect(await explainedBalance(alice.id)).toBe(9 * P);
  });

  it("every reader of the wallet sees the room's charges at once (no charge waits for the alarm)", async () => {
    const { alice, conversationId } = await pair({ credits: 100 * P });
    for (let i = 0; i < 3; i++) await text(conversationId, alice.id, `m${i}`);
    // The room has not sent them yet; the wallet asks for them before it answers.
    expect((await roomSide(conversationId, alice.id)).unsettled).toBe(3);
    expect(await explainedBalance(alice.id)).toBe(97 * P);
    expect(await ledgerCount(alice.id, ["message"])).toBe(3);
  });
});

describe("giving the allowance back", () => {
  it("after the room was evicted, with a lost grant answer and a lost return answer: returned exactly once", async () => {
    const { alice, conversationId } = await pair({ credits: 200 * P });
    expect(await text(conversationId, alice.id, "one")).toMatchObject({ ok: true });
    const held = (await holds(alice.id))[conversationId]!;
    expect(held).toBeGreaterThan(P);
    // A grant asked whose answer never arrived: the wallet granted it, the room crashed before recording it.
    const lostKey = `allowance:${conversationId}:${alice.id}:99`;
    const lost = await hubStub(env, alice.id).walletReserve(alice.id, conversationId, lostKey, 0, 7 * P);
    expect(lost).toEqual({ ok: true, amount: 7 * P });
    await runInDurableObject(roomStub(env, conversationId), async (_room, state) => {
      state.storage.sql.exec("UPDATE allowances SET pending = ?, grants = 99 WHERE user_id = ?", lostKey, alice.id);
    });
    await evictDurableObject(roomStub(env, conversationId));
    // Idle past ALLOWANCE_IDLE_S: the alarm of the new instance gives everything back.
    await runInDurableObject(roomStub(env, conversationId), async (room: ChatRoom, state) => {
      state.storage.sql.exec("UPDATE allowances SET last_spend_at = last_spend_at - ?", ALLOWANCE_IDLE_S + 1);
      // What the runtime does when the alarm is due.
      await room.alarm();
    });
    expect(await holds(alice.id)).toEqual({});
    expect(await roomSide(conversationId, alice.id)).toEqual({ amount: 0, unsettled: 0 });
    // The room crashed before it deleted its confirmed return row: sent again, after another eviction.
    await runInDurableObject(roomStub(env, conversationId), async (_room, state) => {
      state.storage.sql.exec(
        "INSERT INTO charges (key, user_id, kind, credits, created_at) VALUES (?, ?, 'return', ?, 0)",
        `allowance-return:${conversationId}:${alice.id}:1`,
        alice.id,
        held - P + 7 * P,
      );
    });
    await evictDurableObject(roomStub(env, conversationId));
    await roomStub(env, conversationId).returnAllowance(conversationId, alice.id);
    expect(await holds(alice.id)).toEqual({});
    expect(await roomSide(conversationId, alice.id)).toEqual({ amount: 0, unsettled: 0 });
    // Everything is free again: the whole balance can be spent elsewhere without asking the room.
    expect(await explainedBalance(alice.id)).toBe(199 * P);
    expect(await applyCredits(env, alice.id, { key: `test:${cid()}`, delta: -199 * P, reason: "photo" })).toMatchObject(
      { ok: true, balance: 0 },
    );
    // And the room, asked again, grants nothing it does not have.
    expect(await text(conversationId, alice.id, "broke")).toMatchObject({ ok: false, error: "credits" });
  });
});

describe("credits held by rooms, needed elsewhere", () => {
  it("a member with credits held in two rooms spends elsewhere: the rooms give them back first, never below 0", async () => {
    const alice = await createMember({ paidUser: true, credits: 100 * P });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await startConversation(env.DB, alice.id, (await createMember()).id);
      if (s.ok) ids.push(s.id);
    }
    for (const id of ids) expect(await text(id, alice.id, "hi")).toMatchObject({ ok: true });
    expect(Object.keys(await holds(alice.id)).sort()).toEqual([...ids].sort());
    // 98 left, of which the rooms hold most: a spend of 90 elsewhere calls them back.
    expect(await applyCredits(env, alice.id, { key: `test:${cid()}`, delta: -90 * P, reason: "photo" })).toMatchObject({
      ok: true,
      balance: 8 * P,
    });
    expect(await holds(alice.id)).toEqual({});
    // More than is left is refused, nothing changes.
    expect(await applyCredits(env, alice.id, { key: `test:${cid()}`, delta: -9 * P, reason: "photo" })).toMatchObject({
      ok: false,
    });
    // The rooms go on from what is left, exactly.
    for (let i = 0; i < 8; i++) expect(await text(ids[i % 2]!, alice.id, `m${i}`)).toMatchObject({ ok: true });
    expect(await text(ids[0]!, alice.id, "one too many")).toMatchObject({ ok: false, error: "credits" });
    expect(await explainedBalance(alice.id)).toBe(0);
    expect(await ledgerCount(alice.id, ["message"])).toBe(10);
  });

  it("a chargeback takes the credits the rooms hold too (clamped to the balance)", async () => {
    const { alice, conversationId } = await pair({ credits: 100 * P });
    expect(await text(conversationId, alice.id, "hi")).toMatchObject({ ok: true });
    const r = await applyCredits(env, alice.id, {
      key: `chargeback:${cid()}:1`,
      delta: -500 * P,
      reason: "chargeback",
      clamp: true,
    });
    expect(r).toMatchObject({ ok: true, delta: -99 * P, balance: 0 });
    expect(await holds(alice.id)).toEqual({});
    expect(await text(conversationId, alice.id, "after")).toMatchObject({ ok: false, error: "credits" });
    expect(await explainedBalance(alice.id)).toBe(0);
  });
});

// A refund through the payments model (Mollie faked at fetch), as in mollie-unknown.test.ts.
afterEach(() => vi.unstubAllGlobals());

describe("a refund that needs credits a room holds", () => {
  it("reclaims the allowance, takes the unused credits once, and the room spends no more", async () => {
    const { m, id } = await paidPurchase();
    const s = await startConversation(env.DB, m.id, (await createMember()).id);
    if (!s.ok) throw new Error(s.error);
    expect(await text(s.id, m.id, "before the refund")).toMatchObject({ ok: true });
    // The wallet holds the room's block (what it spent is not confirmed yet): nothing of the 60 is free.
    expect((await holds(m.id))[s.id]).toBe(Math.min(60, 50 * P));

    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body ?? "{}")) as Record<string, unknown>;
      return new Response(
        JSON.stringify({
          ...refundPending,
          status: "pending",
          amount: body.amount,
          metadata: body.metadata,
          paymentId: new URL(String(input)).pathname.split("/")[3],
        }),
        { status: 201, headers: { "Content-Type": "application/hal+json" } },
      );
    });
    const ctx = {
      env: {
        ...env,
        PAYMENT_PROVIDER: "mollie",
        MOLLIE_API_KEY_AMORA: "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM",
        PAYMENT_CHECKS: { send: async () => undefined },
      },
      deliver: (r: Request) => SELF.fetch(r),
    } as unknown as AppLoadContext;
    const brand = { id: 1, name: "Amora", refundDays: 14 } as BrandWithCompany;
    const result = await requestRefund(ctx, brand, (await ownPayment(ctx, m.id, id))!);
    expect(result).toMatchObject({ ok: true });
    expect(await holds(m.id)).toEqual({});
    expect(await explainedBalance(m.id)).toBe(0);
    expect(await ledgerCount(m.id, ["refund"])).toBe(1);
    expect(await text(s.id, m.id, "after the refund")).toMatchObject({ ok: false, error: "credits" });
  });
});
