/**
 * What each page crosses the distance for (docs/architecture/budgets.md §6): per page and form action of a
 * visitor, a member and an operator, the D1 queries and their sequential depth, the Durable Object calls
 * and theirs, and the R2 reads, counted by the Worker itself (app/lib/trace.server.ts); then each page's
 * wall time with every round trip held back by DELAY ms, as from an edge far from the primary.
 *
 * Last, a model of placement (decision 223) from the counted depths: each page's time spent on round trips
 * for a member far from the primary (DELAY ms a round trip) and one near it (5 ms), once with the Worker at
 * their edge reading replicas (a visitor's and a member's GET; posts and the console read the primary)
 * and once with the Worker placed beside the primary (Smart Placement: one long hop to reach it, then
 * every D1 and object call local, the objects having been created next to it).
 *
 *   npm run build && node --experimental-strip-types tests/bench/round-trips.ts [delay=40] [--markdown]
 */
import { execSync } from "node:child_process";
import { benchPort, freshState, loginCookie, startBenchServer } from "./server.ts";

const DELAY = Number(process.argv.find((a: string) => /^\d+$/.test(a)) ?? 40);
const MARKDOWN = process.argv.includes("--markdown");
const PORT = benchPort(8795);
const BASE = `http://127.0.0.1:${PORT}`;
const STATE = `.wrangler/bench-round-trips-${PORT}`;
const PASSWORD = "Demo-pass-2026";

type Step = { who: "visitor" | "member" | "operator"; label: string; path: string; form?: Record<string, string> };

/** Demo data ids the steps need, read from the seeded state through the dev SQL route's own database. */
async function demoIds(member: string) {
  const html = await (await fetch(`${BASE}/members`, { headers: { Cookie: member } })).text();
  const profile = /href="\/members\/([A-Za-z0-9_-]{6,})"/.exec(html)?.[1];
  const chats = await (await fetch(`${BASE}/chats`, { headers: { Cookie: member } })).text();
  const chat = /href="\/chats\/([A-Za-z0-9_-]{6,})"/.exec(chats)?.[1];
  if (!profile || !chat) throw new Error("the demo data has no profile or conversation to open");
  return { profile, chat };
}

function steps(ids: { profile: string; chat: string }): Step[] {
  return [
    { who: "visitor", label: "landing", path: "/" },
    { who: "visitor", label: "sign-up", path: "/signup" },
    { who: "visitor", label: "log-in", path: "/login" },
    { who: "visitor", label: "lander (tinderswipe)", path: "/landers/tinderswipe" },
    { who: "visitor", label: "public profile lander", path: `/members/${ids.profile}/landing` },
    { who: "visitor", label: "terms", path: "/pages/terms" },
    { who: "visitor", label: "pricing", path: "/pricing" },
    { who: "member", label: "search", path: "/members" },
    { who: "member", label: "a profile", path: `/members/${ids.profile}` },
    { who: "member", label: "likes", path: "/likes" },
    { who: "member", label: "chats", path: "/chats" },
    { who: "member", label: "a conversation", path: `/chats/${ids.chat}` },
    { who: "member", label: "credits", path: "/credits" },
    { who: "member", label: "a method page", path: "/credits/p1/ideal" },
    { who: "member", label: "settings", path: "/settings" },
    { who: "member", label: "profile", path: "/profile" },
    { who: "member", label: "swipe game", path: "/swipe-game" },
    { who: "member", label: "transactions", path: "/transactions" },
    { who: "member", label: "like (action)", path: `/members/${ids.profile}?index`, form: { intent: "like" } },
    { who: "operator", label: "console dashboard", path: "/admin" },
    { who: "operator", label: "console members", path: "/admin/members" },
    { who: "operator", label: "console payments", path: "/admin/payments" },
    { who: "operator", label: "console reports", path: "/admin/reports" },
  ];
}

type Row = { who: string; page: string; status: number; d1: string; objects: string; r2: string; ms: number };

async function run(step: Step, cookie: string) {
  const init: RequestInit = step.form
    ? {
        method: "POST",
        headers: { Cookie: cookie, Origin: BASE, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(step.form),
        redirect: "manual",
      }
    : { headers: { Cookie: cookie }, redirect: "manual" };
  const start = performance.now();
  const res = await fetch(BASE + step.path, init);
  await res.arrayBuffer();
  const ms = performance.now() - start;
  const timing = res.headers.get("Server-Timing") ?? "";
  const desc = (name: string) => new RegExp(`${name};desc="([^"]*)"`).exec(timing)?.[1] ?? "?";
  return { status: res.status, d1: desc("d1"), objects: desc("do"), r2: desc("r2"), ms };
}

async function measure(delay: number): Promise<Row[]> {
  const server = await startBenchServer({
    port: PORT,
    state: STATE,
    configs: ["workers/images/wrangler.toml"],
    vars: { TRACE_ROUND_TRIPS: "1", TRACE_DELAY_MS: String(delay) },
  });
  try {
    const visitor = "entry_ok=1";
    const member = `${visitor}; ${await loginCookie(BASE, "/login", { email: "premium@example.com", password: PASSWORD }, "sid")}`;
    const operator = await loginCookie(
      BASE,
      "/admin/login",
      { email: "operator@example.com", password: PASSWORD, code: "" },
      "op_sid",
    );
    const ids = await demoIds(member);
    const rows: Row[] = [];
    for (const step of steps(ids)) {
      const cookie = step.who === "visitor" ? visitor : step.who === "member" ? member : operator;
      if (!step.form) await run(step, cookie); // warm: module caches, brand settings
      // A form action changes state: measured once (the like), a page as the median of five.
      const tries = step.form ? 1 : 5;
      const results = [];
      for (let i = 0; i < tries; i++) results.push(await run(step, cookie));
      results.sort((a, b) => a.ms - b.ms);
      const mid = results[Math.floor(results.length / 2)]!;
      rows.push({ who: step.who, page: `${step.label} ${step.path.replace(/[A-Za-z0-9_-]{12,}/g, "<id>")}`, ...mid });
    }
    return rows;
  } finally {
    server.stop();
  }
}

freshState(STATE);
execSync(`"${process.execPath}" --experimental-strip-types db/seed.ts`, {
  stdio: "ignore",
  env: { ...process.env, WRANGLER_PERSIST: `${STATE}/v3` },
});
const near = await measure(0);
const far = await measure(DELAY);
/** Round trips in ms: a replica or an object near the Worker, a call inside the primary's region. */
const REPLICA_MS = 2;
const LOCAL_MS = 1;
const NEAR_PRIMARY_MS = 5;
const depthOf = (pair: string) => Number(pair.split("/")[1] ?? 0) || 0;
function placement(row: Row, step: Step, distance: number) {
  const d1 = depthOf(row.d1);
  const objects = depthOf(row.objects);
  const primaryOnly = Boolean(step.form) || step.who === "operator";
  const edge = d1 * (primaryOnly ? distance : REPLICA_MS) + objects * REPLICA_MS;
  const placed = distance + (d1 + objects) * LOCAL_MS;
  return { edge, placed };
}
const stepsRun = steps({ profile: "p", chat: "c" });
const table = near.map((r, i) => ({
  who: r.who,
  page: r.page,
  status: r.status,
  "D1 queries/depth": r.d1,
  "objects calls/depth": r.objects,
  "R2 reads": r.r2,
  "ms near": Math.round(r.ms),
  [`ms with ${DELAY} ms a round trip`]: Math.round(far[i]!.ms),
  [`model far: edge+replicas / placed`]: (({ edge, placed }) => `${edge} / ${placed}`)(
    placement(r, stepsRun[i]!, DELAY),
  ),
  [`model near: edge+replicas / placed`]: (({ edge, placed }) => `${edge} / ${placed}`)(
    placement(r, stepsRun[i]!, NEAR_PRIMARY_MS),
  ),
}));
if (MARKDOWN) {
  const keys = Object.keys(table[0]!);
  console.log(`| ${keys.join(" | ")} |\n| ${keys.map(() => "---").join(" | ")} |`);
  for (const row of table) console.log(`| ${Object.values(row).join(" | ")} |`);
} else console.table(table);
