/**
 * Moderation figures for `npm run bench` (decision 167): the /admin/reports queue page's server time
 * with 10,000 open cases seeded (and their notices), logged in as the demo moderator. The queue
 * reads its page through moderation_cases_queue (status, severity, opened_at) and counts each
 * row's notices through notices_case; the query plans are printed next to the time.
 */
import { getPlatformProxy } from "wrangler";

export const OPEN_CASES = 10_000;

type TimeRoute = (
  path: string,
  n?: number,
  init?: RequestInit,
) => Promise<{ mean: number; p95: number; wallP50: number; wallP95: number }>;

export async function moderationBench(base: string, persist: string, timeRoute: TimeRoute) {
  const proxy = await getPlatformProxy<{ DB: D1Database }>({ persist: { path: persist } });
  const { DB } = proxy.env;
  // Generated in SQL (a recursive counter): 10,000 open message cases over the seeded members,
  // one notice each and a second on every other one, every fifth flagged.
  await DB.batch([
    DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1),
         m AS (SELECT id, brand_id, row_number() OVER (ORDER BY id) - 1 AS k, count(*) OVER () AS total FROM users)
       INSERT INTO moderation_cases (id, brand_id, target_type, target_id, member_id, severity, status, flagged_by, opened_at, closed_at)
       SELECT 'bench-case-' || i, m.brand_id, 'message', 'bench-conv-' || i || ':1', m.id, i % 8, 'open',
              CASE WHEN i % 5 = 0 THEN 'same_text' END, unixepoch() - i * 60, NULL
       FROM n JOIN m ON m.k = i % m.total`,
    ).bind(OPEN_CASES),
    DB.prepare(
      `INSERT INTO notices (case_id, reporter_id, category, explanation, language, created_at)
       SELECT id, 'bench-reporter-a', 'spam', 'Bench notice', 'en', opened_at FROM moderation_cases WHERE id LIKE 'bench-case-%'`,
    ),
    DB.prepare(
      `INSERT INTO notices (case_id, reporter_id, category, explanation, language, created_at)
       SELECT id, 'bench-reporter-b', 'fake', 'Bench notice', 'en', opened_at + 60 FROM moderation_cases
       WHERE id LIKE 'bench-case-%' AND rowid % 2 = 0`,
    ),
  ]);
  const open = await DB.prepare("SELECT count(*) AS n FROM moderation_cases WHERE status = 'open'").first<number>("n");
  const plan = async (q: string) =>
    (await DB.prepare(`EXPLAIN QUERY PLAN ${q}`).all<{ detail: string }>()).results.map((r) => r.detail).join("; ");
  const plans = {
    page: await plan(
      `SELECT c.id, (SELECT count(*) FROM notices n WHERE n.case_id = c.id) FROM moderation_cases c
       LEFT JOIN profiles p ON p.user_id = c.member_id WHERE c.status = 'open' ORDER BY c.severity, c.opened_at LIMIT 100`,
    ),
    oldest: await plan("SELECT min(opened_at), count(*) FROM moderation_cases WHERE status = 'open'"),
  };
  await proxy.dispose();

  const res = await fetch(`${base}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: "moderator@example.com", password: "Demo-pass-2026", code: "" }),
  });
  const cookie = res.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new Error(`operator login failed (${res.status})`);
  const page = await fetch(`${base}/admin/reports`, { headers: { Cookie: cookie } });
  if (!page.ok || !(await page.text()).includes("/admin/reports/bench-case-"))
    throw new Error(`queue page failed (${page.status})`);
  const queue = await timeRoute("/admin/reports", 100, { headers: { Cookie: cookie } });
  return { open: open ?? 0, queue, plans };
}
