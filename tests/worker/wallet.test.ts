import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  applyCredits,
  cancelCredits,
  flushWallet,
  walletBalance,
  walletLedger,
  walletSummary,
} from "../../app/wallet/wallet.server";
import { drainOutbox, outboxRow } from "../../app/wallet/outbox.server";
import { continueWalletMigration, migrateWalletsPage } from "../../app/wallet/migrate.server";
import type { DataMove } from "../../app/models/moves";
import { hubStub } from "../../app/chat/stubs";
import { exportMemberData } from "../../app/models/accounts/export.server";
import { hubUnderTest } from "./worker-main";
import { createMember, get, post, sessionCookie } from "./fixtures";
import {
  expectLedgerExplains,
  member,
  paymentRow,
  setProviderStatus,
  startPayment,
  userRow,
  webhook,
} from "./payments-support";
import { ledgerOf } from "./wallet-support";
import { cid, pair, PRICES, roomStub } from "./chat-support";
import enPayments from "../../locales/en/payments.json";

const d1Credits = async (id: string) =>
  (await env.DB.prepare("SELECT credits FROM users WHERE id = ?1").bind(id).first<{ credits: number }>())!.credits;

describe("the member's wallet (MemberHub, decision 189)", () => {
  it("20 concurrent spends with credits for 5 apply exactly 5, each one ledger row; the ledger explains the balance", async () => {
    const m = await createMember({ credits: 5 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        applyCredits(env, m.id, { key: `message:c1:${i}`, delta: -1, reason: "message" }),
      ),
    );
    expect(results.filter((r) => r.ok && r.applied)).toHaveLength(5);
    expect(results.filter((r) => !r.ok && r.error === "credits")).toHaveLength(15);
    expect(await walletBalance(env, m.id)).toBe(0);
    const rows = await walletLedger(env, m.id, { reasons: ["message"] });
    expect(rows).toHaveLength(5);
    const s = await walletSummary(env, m.id);
    expect(s.opening + s.sum).toBe(s.balance);
    expect(rows.every((r) => r.balance >= 0)).toBe(true);
  });

  it("a retried key applies once, even when retried at once in parallel", async () => {
    const m = await createMember({ credits: 10 });
    const op = { key: "message:c2:client-1", delta: -3, reason: "message" as const, refId: "msg-1" };
    const results = await Promise.all(Array.from({ length: 10 }, () => applyCredits(env, m.id, op)));
    expect(results.filter((r) => r.ok && r.applied)).toHaveLength(1);
    expect(results.every((r) => r.ok && r.delta === -3 && r.balance === 7)).toBe(true);
    expect(await applyCredits(env, m.id, op)).toEqual({ ok: true, applied: false, delta: -3, balance: 7 });
    expect(await walletLedger(env, m.id, { refId: "msg-1" })).toHaveLength(1);
  });

  it("a clamped take never goes below zero and records what it took; a spend too big changes nothing", async () => {
    const m = await createMember({ credits: 4 });
    expect(await applyCredits(env, m.id, { key: "photo:x", delta: -5, reason: "photo" })).toEqual({
      ok: false,
      error: "credits",
      balance: 4,
    });
    const r = await applyCredits(env, m.id, { key: "chargeback:p1", delta: -10, reason: "chargeback", clamp: true });
    expect(r).toEqual({ ok: true, applied: true, delta: -4, balance: 0 });
    const again = await applyCredits(env, m.id, {
      key: "chargeback:p1",
      delta: -10,
      reason: "chargeback",
      clamp: true,
    });
    expect(again).toEqual({ ok: true, applied: false, delta: -4, balance: 0 });
    // Its reversal gives back exactly what it took.
    expect(await cancelCredits(env, m.id, "chargeback:p1", "chargeback_reversed")).toEqual({
      ok: true,
      applied: true,
      delta: 4,
      balance: 4,
    });
  });

  it("cancel gives back once; cancelling a key never applied is a no-op; a cancelled key charges anew when applied again", async () => {
    const m = await createMember({ credits: 6 });
    await applyCredits(env, m.id, { key: "message:c3:a", delta: -2, reason: "message" });
    const cancels = await Promise.all(
      Array.from({ length: 5 }, () => cancelCredits(env, m.id, "message:c3:a", "message")),
    );
    expect(cancels.filter((c) => c.ok && c.applied)).toHaveLength(1);
    expect(await walletBalance(env, m.id)).toBe(6);
    expect(await cancelCredits(env, m.id, "message:c3:never", "message")).toEqual({
      ok: true,
      applied: false,
      delta: 0,
      balance: 6,
    });
    const keys = (await walletLedger(env, m.id, { oldestFirst: true, reasons: ["message"] })).map((r) => [
      r.key,
      r.delta,
    ]);
    expect(keys).toEqual([
      ["message:c3:a", -2],
      ["message:c3:a:cancel", 2],
    ]);
    // The message was not stored; the member sends it again: it is charged (once).
    const again = await applyCredits(env, m.id, { key: "message:c3:a", delta: -2, reason: "message" });
    expect(again).toEqual({ ok: true, applied: true, delta: -2, balance: 4 });
  });

  it("the first touch imports the member's D1 balance and ledger once; the D1 copy follows the wallet", async () => {
    const m = await createMember({ credits: 0 });
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET credits = 12 WHERE id = ?1").bind(m.id),
      env.DB.prepare(
        "INSERT INTO credit_ledger (user_id, delta, reason, ref_id, created_at) VALUES (?1, 10, 'purchase', 'pay-x', 100), (?1, 5, 'signup', NULL, 50), (?1, -3, 'message', 'm1', 200)",
      ).bind(m.id),
    ]);
    // Concurrent first touches: one import.
    const balances = await Promise.all(Array.from({ length: 5 }, () => walletBalance(env, m.id)));
    expect(balances).toEqual([12, 12, 12, 12, 12]);
    const rows = await walletLedger(env, m.id, { oldestFirst: true });
    expect(rows.map((r) => [r.delta, r.reason, r.refId])).toEqual([
      [10, "purchase", "pay-x"],
      [5, "signup", null],
      [-3, "message", "m1"],
    ]);
    expect(rows.map((r) => r.balance)).toEqual([10, 15, 12]);
    // A second touch (and a D1 change after it) imports nothing more: the wallet is the truth now.
    await env.DB.prepare("UPDATE users SET credits = 99 WHERE id = ?1").bind(m.id).run();
    expect(await walletBalance(env, m.id)).toBe(12);
    expect((await walletSummary(env, m.id)).rows).toBe(3);
    // A grant writes the copy at once.
    await applyCredits(env, m.id, { key: "grant:a1", delta: 3, reason: "adjustment" });
    expect(await d1Credits(m.id)).toBe(15);
    // A chat spend's copy is coalesced (the alarm), or written at once by a flush.
    await applyCredits(env, m.id, { key: "message:c:1", delta: -1, reason: "message" });
    expect(await flushWallet(env, m.id)).toBe(14);
    expect(await d1Credits(m.id)).toBe(14);
  });

  it("a wallet imported while its member was pending deletion still spends once they reactivate", async () => {
    const m = await createMember({ credits: 4 });
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(m.id).run();
    expect(await walletBalance(env, m.id)).toBe(4);
    await env.DB.prepare("UPDATE users SET deleted_at = NULL WHERE id = ?1").bind(m.id).run();
    expect(await applyCredits(env, m.id, { key: "message:back:1", delta: -1, reason: "message" })).toMatchObject({
      ok: true,
      balance: 3,
    });
  });

  it("bad ops are refused and change nothing", async () => {
    const m = await createMember({ credits: 3 });
    await expect(applyCredits(env, m.id, { key: "", delta: 1, reason: "adjustment" })).rejects.toThrow();
    await expect(applyCredits(env, m.id, { key: "k", delta: 1.5, reason: "adjustment" })).rejects.toThrow();
    expect(await walletBalance(env, m.id)).toBe(3);
  });
});

describe("the outbox: a D1 change and a wallet change, both exactly once", () => {
  it("a payment completed while the member's wallet is unreachable is credited once when it comes back", async () => {
    const m = await member({ credits: 0 });
    const { providerId, paymentId } = await startPayment(m.cookie);
    await setProviderStatus(providerId, "paid", { paidAt: new Date().toISOString() });
    // The wallet fails the webhook's call (as if the object were unreachable).
    await hubUnderTest(env, m.id).walletFailNext(1);
    expect((await webhook(providerId)).status).toBe(200);
    expect((await paymentRow(paymentId))!.status).toBe("paid");
    const pending = await outboxRow(env, m.id, `payment:${paymentId}`);
    expect(pending).toMatchObject({ appliedAt: null, delta: 60, reason: "purchase" });
    expect(await walletBalance(env, m.id)).toBe(0);
    // Replays of the webhook do not complete the payment again (the guarded status change) ...
    await Promise.all(Array.from({ length: 3 }, () => webhook(providerId)));
    // ... and the retry (the queue, the hourly cron) applies the row: once, however often it runs.
    await Promise.all([drainOutbox(env, { userId: m.id }), drainOutbox(env, { userId: m.id }), drainOutbox(env)]);
    await drainOutbox(env, { userId: m.id });
    expect(await walletBalance(env, m.id)).toBe(60);
    expect(await ledgerOf(m.id, (r) => r.ref_id === paymentId)).toHaveLength(1);
    expect(await outboxRow(env, m.id, `payment:${paymentId}`)).toMatchObject({ result: 60, refused: false });
    expect(await userRow(m.id)).toEqual({ credits: 60, paid_user: 1 });
    await expectLedgerExplains(m.id);
  });

  it("a refund asked while the member's wallet cannot be reached changes nothing: no live refund, no credits taken", async () => {
    const m = await member({ credits: 0 });
    const { providerId, paymentId } = await startPayment(m.cookie);
    await setProviderStatus(providerId, "paid", { paidAt: new Date().toISOString() });
    await webhook(providerId);
    expect(await walletBalance(env, m.id)).toBe(60);
    await hubUnderTest(env, m.id).walletFailNext(2);
    // The quote reads the wallet: refused with the translated "try again later", a 503, not a 500.
    const res = await post(`/transactions/${paymentId}`, { intent: "refund" }, { cookie: m.cookie });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain(enPayments.refund.provider);
    await drainOutbox(env, { userId: m.id });
    const refunds = await env.DB.prepare("SELECT status FROM refunds WHERE payment_id = ?1").bind(paymentId).all();
    expect(refunds.results.filter((r) => r.status !== "failed")).toEqual([]);
    expect(await walletBalance(env, m.id)).toBe(60);
    await expectLedgerExplains(m.id);
  });
});

describe("what the member sees of their balance", () => {
  it("the header shows the wallet's balance right after a chat spend, before D1's copy is written", async () => {
    const m = await createMember({ paidUser: true, credits: 5 });
    const cookie = await sessionCookie(m.id);
    expect(await (await get("/members", { cookie })).text()).toContain("5 credits left");
    await applyCredits(env, m.id, { key: "message:header:1", delta: -2, reason: "message" });
    // D1's copy of a chat spend is coalesced (written by the wallet's alarm) ...
    expect(await d1Credits(m.id)).toBe(5);
    // ... but the page reads the wallet.
    expect(await (await get("/members", { cookie })).text()).toContain("3 credits left");
  });

  it("the data export shows the wallet's balance while a chat charge has reached the wallet but not D1's copy", async () => {
    const { alice, conversationId } = await pair({ credits: 10 });
    const cookie = await sessionCookie(alice.id);
    const sent = await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hello",
    });
    expect(sent.ok).toBe(true);
    // The charge reaches the wallet (a read pulls it from the room); D1's copy waits for the wallet's
    // alarm, held back here so the copy trails whatever the clock does.
    expect(await walletBalance(env, alice.id)).toBe(9);
    await runInDurableObject(hubStub(env, alice.id), (_hub, state) => state.storage.deleteAlarm());
    expect(await d1Credits(alice.id)).toBe(10);
    type Export = { user: { credits: number }; credit_ledger: { delta: number }[] };
    const exported = async () => (await (await get("/settings/data", { cookie })).json()) as Export;
    const first = await exported();
    expect(first.user.credits).toBe(9);
    // The balance the export shows is the one its ledger explains.
    expect(first.credit_ledger.reduce((sum, r) => sum + r.delta, 0)).toBe(9);
    // D1's copy catches up (the alarm's work): with nothing done in between, the next export says the same.
    await flushWallet(env, alice.id);
    expect(await d1Credits(alice.id)).toBe(9);
    expect((await exported()).user.credits).toBe(9);
  });
});

describe("the data export's balance and ledger (decision 239)", () => {
  it("read at one instant: a charge that lands between the export's wallet reads is in both or in neither", async () => {
    const m = await createMember({ credits: 10 });
    const charge = { key: "message:export-race:1", delta: -3, reason: "message" as const };
    // The member's object as the export reaches it, except that the first wallet read's answer is
    // followed by a charge, and any later read waits for that charge: a spend settling mid-export.
    let first: Promise<unknown> | null = null;
    const between = <T>(read: () => Promise<T>): Promise<T> => {
      if (first) return first.then(read);
      const answer = read();
      first = answer.then(() => applyCredits(env, m.id, charge));
      return answer;
    };
    const reads = new Set(["walletBalance", "walletLedger", "walletStatement", "walletSummary"]);
    const hubs = {
      idFromName: (name: string) => env.MEMBER_HUB.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = env.MEMBER_HUB.get(id);
        return new Proxy(stub, {
          get: (target, name) =>
            typeof name === "string" && reads.has(name)
              ? (...a: unknown[]) =>
                  between(() =>
                    (target as unknown as Record<string, (...b: unknown[]) => Promise<unknown>>)[name]!(...a),
                  )
              : Reflect.get(target, name),
        });
      },
    } as unknown as typeof env.MEMBER_HUB;
    const exported = await exportMemberData({ DB: env.DB, CHAT_ROOM: env.CHAT_ROOM, MEMBER_HUB: hubs }, m.id);
    await first;
    const { opening } = await walletSummary(env, m.id);
    const explained = (rows: { delta: number }[]) => opening + rows.reduce((sum, r) => sum + r.delta, 0);
    const balance = (exported.user as { credits: number }).credits;
    expect(balance).toBe(explained(exported.credit_ledger));
    expect(balance).toBe(10);
    // The charge did land, just after: the next export shows it in both.
    expect(await walletBalance(env, m.id)).toBe(7);
    const next = await exportMemberData(env, m.id);
    expect((next.user as { credits: number }).credits).toBe(7);
    expect(explained(next.credit_ledger)).toBe(7);
  });
});

describe("the D1 copy of the balance", () => {
  it("100 chat spends write no copy on their path; the alarm writes the latest balance once", async () => {
    const m = await createMember({ credits: 100 });
    await flushWallet(env, m.id);
    for (let i = 0; i < 100; i++)
      expect((await applyCredits(env, m.id, { key: `message:copy:${i}`, delta: -1, reason: "message" })).ok).toBe(true);
    expect(await d1Credits(m.id)).toBe(100);
    expect(await runDurableObjectAlarm(hubStub(env, m.id))).toBe(true);
    expect(await d1Credits(m.id)).toBe(0);
    // Nothing left to copy: no alarm is set any more.
    expect(await runDurableObjectAlarm(hubStub(env, m.id))).toBe(false);
  });
});

describe("the migration of balances and ledgers into the wallets", () => {
  const runAll = async (limit?: number) => {
    let after: string | null = "";
    let pages = 0;
    while (after !== null) {
      after = (await migrateWalletsPage(env, after, limit)).next;
      pages += 1;
    }
    return pages;
  };
  const seeded = async (credits: number) => {
    const m = await createMember({ credits: 0 });
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET credits = ?2, wallet_at = NULL WHERE id = ?1").bind(m.id, credits),
      env.DB.prepare(
        "INSERT INTO credit_ledger (user_id, delta, reason, ref_id, created_at) VALUES (?1, ?2, 'purchase', 'old-pay', 100)",
      ).bind(m.id, credits),
    ]);
    return m;
  };
  const pendingOf = async (ids: string[]) =>
    (await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM users WHERE wallet_at IS NULL AND id IN (${ids.map(() => "?").join(", ")})`,
    )
      .bind(...ids)
      .first<{ n: number }>())!.n;

  it("interrupted half-way and run again, with a member spending in between: every balance and ledger moved once", async () => {
    const members = await Promise.all([10, 20, 30, 40].map(seeded));
    const ids = members.map((m) => m.id);
    // One page of two, then the run stops (a Worker evicted, a queue message lost).
    await migrateWalletsPage(env, "", 2);
    expect(await pendingOf(ids)).toBeGreaterThan(0);
    // Meanwhile a member not yet migrated spends: their wallet imports on that first touch.
    const last = members[3]!;
    expect(await applyCredits(env, last.id, { key: "message:mig:1", delta: -5, reason: "message" })).toMatchObject({
      ok: true,
      balance: 35,
    });
    await runAll(2);
    expect(await pendingOf(ids)).toBe(0);
    for (const [i, m] of members.entries()) {
      const rows = await ledgerOf(m.id);
      const want = (i + 1) * 10 - (m === last ? 5 : 0);
      expect(await walletBalance(env, m.id)).toBe(want);
      expect(rows.filter((r) => r.ref_id === "old-pay")).toHaveLength(1);
      expect(rows.reduce((s, r) => s + r.delta, 0)).toBe(want);
    }
  });

  it("run twice (even with every member marked pending again): nothing is imported twice", async () => {
    const members = await Promise.all([7, 8].map(seeded));
    const ids = members.map((m) => m.id);
    await runAll();
    await env.DB.prepare(`UPDATE users SET wallet_at = NULL WHERE id IN (?1, ?2)`).bind(ids[0], ids[1]).run();
    await runAll();
    expect(await pendingOf(ids)).toBe(0);
    for (const [i, m] of members.entries()) {
      expect(await walletBalance(env, m.id)).toBe(7 + i);
      expect(await ledgerOf(m.id)).toHaveLength(1);
    }
  });

  it("through the queue: a wallet-migrate page moves a page and queues the next on the data-moves queue", async () => {
    const m = await seeded(9);
    const sent: DataMove[] = [];
    const queue = { send: async (body: DataMove) => void sent.push(body) } as unknown as Queue<DataMove>;
    await continueWalletMigration({ ...env, MOVES_QUEUE: queue }, "");
    for (let i = 0; i < 1000 && sent.length; i++) {
      const next = sent.shift() as { kind: "wallet-migrate"; after?: string };
      await continueWalletMigration({ ...env, MOVES_QUEUE: queue }, next.after ?? "");
    }
    expect(await pendingOf([m.id])).toBe(0);
    expect(await walletBalance(env, m.id)).toBe(9);
  });
});
