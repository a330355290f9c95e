/**
 * Part of `npm run bench` (figures, never a pass/fail on speed): what a spend costs through the member's
 * wallet (an RPC to their MemberHub and one SQLite transaction) next to a D1 debit batch, in workerd with
 * the real bindings. Checks only that the money is right; prints the timings.
 * Run alone: npm run build && npx vitest run --config vitest.bench.config.ts
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { applyCredits, walletBalance } from "../../../app/wallet/wallet.server";
import { createMember } from "../../worker/fixtures";

const N = 300;
/** The baseline: a spend in D1's old shape (before decision 189), a guarded debit and its ledger row in one batch. */
const d1Spend = (userId: string) => [
  env.DB.prepare("UPDATE users SET credits = credits - 1 WHERE id = ?1 AND deleted_at IS NULL AND credits >= 1").bind(
    userId,
  ),
  env.DB.prepare(
    "INSERT INTO credit_ledger (user_id, delta, reason, ref_id, created_at) SELECT ?1, -1, 'message', NULL, unixepoch() WHERE changes() = 1",
  ).bind(userId),
];
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

describe("timings of a spend (printed)", () => {
  it("a spend through the wallet and a D1 debit batch, sequentially, N times each", async () => {
    const m = await createMember({ credits: 2 * N });
    await walletBalance(env, m.id); // the import happens once, not timed
    const wallet: number[] = [];
    for (let i = 0; i < N; i++) {
      const t = performance.now();
      const r = await applyCredits(env, m.id, { key: `timing:${i}`, delta: -1, reason: "message" });
      wallet.push(performance.now() - t);
      expect(r.ok).toBe(true);
    }
    const other = await createMember({ credits: N });
    const d1: number[] = [];
    for (let i = 0; i < N; i++) {
      const t = performance.now();
      await env.DB.batch(d1Spend(other.id));
      d1.push(performance.now() - t);
    }
    expect(await walletBalance(env, m.id)).toBe(N);
    const line = (name: string, xs: number[]) =>
      `${name}: p50 ${pct(xs, 0.5).toFixed(2)} ms, p99 ${pct(xs, 0.99).toFixed(2)} ms, ${(xs.length / (xs.reduce((a, b) => a + b, 0) / 1000)).toFixed(0)} spends/s`;
    console.log(`[wallet timing] ${line("wallet spend", wallet)}; ${line("D1 debit batch", d1)}`);
  });
});
