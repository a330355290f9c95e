/**
 * Part of `npm run bench` (figures, never a pass/fail on speed; decision 201): the team's inbox list
 * over 100,000 team-run conversations of which 1,000 wait, in workerd with the real D1. Prints p50/p95
 * of the list (all, one brand, one language, one profile, "mine") and the query plan (the waiting index).
 * Run alone: npm run build && npx vitest run --config vitest.bench.config.ts tests/bench/workerd/team-inbox.bench.ts
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { teamInbox } from "../../../app/models/admin/inbox.server";
import { returnUnansweredCredits } from "../../../app/models/team.server";
import { seedBrands } from "../../worker/fixtures";

const CONVERSATIONS = 100_000;
/** Every 100th conversation waits: 1,000. */
const WAIT_EVERY = 100;
const PROFILES = 200;
const RUNS = 60;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

/** Rows 1..n through a recursive CTE (one statement per table, no round trip per row). */
const upTo = (n: number) => `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ${n})`;

describe("the team's inbox at 100,000 conversations (printed)", () => {
  it("lists the 1,000 waiting ones, longest first, filtered", async () => {
    await seedBrands();
    const now = 1_900_000_000;
    const t0 = performance.now();
    await env.DB.batch([
      env.DB.prepare(
        `${upTo(CONVERSATIONS + PROFILES)} INSERT INTO users (id, brand_id, email, password_hash, language, wallet_at)
           SELECT 'b-' || i, 1 + i % 2, 'b-' || i || '@bench.invalid', '!', CASE i % 3 WHEN 0 THEN 'de' WHEN 1 THEN 'nl' ELSE 'en' END, 1 FROM k`,
      ),
      env.DB.prepare(
        `${upTo(CONVERSATIONS + PROFILES)} INSERT INTO profiles (user_id, name, gender, date_of_birth, country, fictional)
           SELECT 'b-' || i, 'Bench ' || i, 'female', '1990-01-01', 'NL', i > ${CONVERSATIONS} FROM k`,
      ),
      env.DB.prepare(
        `${upTo(CONVERSATIONS)} INSERT INTO conversations (id, member_a, member_b, started_by)
           SELECT 'bc-' || i, 'b-' || i, 'b-' || (${CONVERSATIONS} + 1 + (i / 100) % ${PROFILES}), 'b-' || i FROM k`,
      ),
      // Every 100th waits (1,000, spread over brands, languages and profiles), the others were answered.
      env.DB.prepare(
        `${upTo(CONVERSATIONS)} INSERT INTO team_conversations (conversation_id, brand_id, profile_id, member_id, language, waiting_since, credits)
           SELECT 'bc-' || i, 1 + (i / 100) % 2, 'b-' || (${CONVERSATIONS} + 1 + (i / 100) % ${PROFILES}), 'b-' || i,
             CASE (i / 100) % 3 WHEN 0 THEN 'de' WHEN 1 THEN 'nl' ELSE 'en' END,
             CASE WHEN i % ${WAIT_EVERY} = 0 THEN ${now} - i ELSE NULL END, i % 7 FROM k`,
      ),
      env.DB.prepare("ANALYZE"),
    ]);
    console.log(
      `[team inbox] seeded ${CONVERSATIONS} conversations in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const op = { id: "bench-op", email: "", name: "Bench", role: "chat_team" as const };
    const cases: [string, Parameters<typeof teamInbox>[2]][] = [
      ["all", {}],
      ["one brand", { brandId: 2 }],
      ["one language", { language: "de" }],
      ["one profile", { profileId: `b-${CONVERSATIONS + 7}` }],
      ["mine", { mine: true }],
    ];
    const lines: string[] = [];
    for (const [label, filter] of cases) {
      const times: number[] = [];
      let rows = 0;
      for (let r = 0; r < RUNS; r++) {
        const t = performance.now();
        rows = (await teamInbox(env.DB, op, filter, now)).length;
        times.push(performance.now() - t);
      }
      lines.push(`${label}: ${rows} rows, p50 ${pct(times, 0.5).toFixed(2)} ms, p95 ${pct(times, 0.95).toFixed(2)} ms`);
    }
    const all = await teamInbox(env.DB, op, {}, now);
    expect(all).toHaveLength(100);
    expect(all[0]!.waitingSince).toBeLessThan(all[99]!.waitingSince!);
    const plan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT conversation_id FROM team_conversations WHERE waiting_since IS NOT NULL ORDER BY waiting_since LIMIT 100",
    ).all<{ detail: string }>();
    const refund = performance.now();
    await returnUnansweredCredits(env, now - 10 * 86_400);
    lines.push(`refund cron scan (nothing due): ${(performance.now() - refund).toFixed(2)} ms`);
    console.log(`[team inbox] ${lines.join("; ")}; plan: ${plan.results.map((r) => r.detail).join(" / ")}`);
  });
});
