import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  applyCredits,
  cancelCredits,
  flushWallet,
  walletBalance,
  walletLedger,
  walletSummary,
} from "../../app/models/wallet.server";
import { createMember } from "./fixtures";

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

  it("bad ops are refused and change nothing", async () => {
    const m = await createMember({ credits: 3 });
    await expect(applyCredits(env, m.id, { key: "", delta: 1, reason: "adjustment" })).rejects.toThrow();
    await expect(applyCredits(env, m.id, { key: "k", delta: 1.5, reason: "adjustment" })).rejects.toThrow();
    expect(await walletBalance(env, m.id)).toBe(3);
  });
});
