/**
 * Console benchmark (issue 22, decision 177): the dashboard and the member search on a big site
 * (100,000 members, 200,000 payments by default, seeded by seed-console.ts), next to a trivial route.
 * Seeds its own local state (.wrangler/bench-console), serves the built Worker with `wrangler dev` on
 * BENCH_CONSOLE_PORT (default 8835) and measures wall time per request on loopback after a warm-up.
 *
 *   npm run build && node --experimental-strip-types tests/bench/console.ts [members=100000] [payments=200000]
 */
import { execSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { getPlatformProxy } from "wrangler";
import { brands, companies, packagePrices, packages } from "../../db/seed/brands.ts";
import { hashPassword } from "../../app/lib/password.ts";
import { seedConsoleData } from "./seed-console.ts";

const MEMBERS = Number(process.argv[2] ?? 100_000);
const PAYMENTS = Number(process.argv[3] ?? 200_000);
const PORT = Number(process.env.BENCH_CONSOLE_PORT ?? 8835);
const STATE = ".wrangler/bench-console";
const PEPPER = "dev-pepper-not-for-production";
const PASSWORD = "Bench-pass-2026";

rmSync(STATE, { recursive: true, force: true });
execSync("node scripts/dev-vars.mjs", { stdio: "ignore" });
execSync(`npx wrangler d1 migrations apply DB --local --persist-to ${STATE}`, { stdio: "ignore" });
const proxy = await getPlatformProxy<{ DB: D1Database }>({ persist: { path: `${STATE}/v3` } });
const { DB } = proxy.env;
const { drizzle } = await import("drizzle-orm/d1");
const schema = await import("../../db/schema.ts");
const db = drizzle(DB, { schema });
await db.insert(schema.companies).values(companies);
for (const brand of brands) await db.insert(schema.brands).values(brand);
await db.insert(schema.packages).values(packages);
await db.insert(schema.packagePrices).values(packagePrices);
const t0 = Date.now();
const seeded = await seedConsoleData(DB, { members: MEMBERS, payments: PAYMENTS });
await DB.prepare(
  "INSERT INTO operators (id, email, name, role, password_hash) VALUES ('bench-support', 'support@bench.example', 'Bench', 'support', ?1)",
)
  .bind(await hashPassword(PASSWORD, PEPPER))
  .run();
await DB.prepare("ANALYZE").run();
console.log(
  `Seeded ${seeded.members} members, ${seeded.payments} payments (${seeded.refunds} refunds, ${seeded.chargebacks} chargebacks) in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
const somePayment = "seed-p00abc";
const someMember = (
  await DB.prepare("SELECT user_id FROM payments WHERE id = ?1").bind(somePayment).first<{ user_id: string }>()
)?.user_id;
await proxy.dispose();

const server = spawn(
  "npx",
  [
    "wrangler",
    "dev",
    "--port",
    String(PORT),
    "--inspector-port",
    String(PORT + 1000),
    "--ip",
    "127.0.0.1",
    "--persist-to",
    STATE,
    "--var",
    "ENVIRONMENT:test",
  ],
  { stdio: "ignore", detached: true },
);
const base = `http://127.0.0.1:${PORT}`;
try {
  for (let i = 0; ; i++) {
    if (i > 180) throw new Error("wrangler dev did not start");
    if (
      await fetch(base).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const login = await fetch(`${base}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ email: "support@bench.example", password: PASSWORD, code: "" }),
  });
  const cookie = (login.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  if (!cookie.startsWith("op_sid=")) throw new Error(`operator login failed: ${login.status}`);

  async function measure(label: string, paths: string[], runs = 30) {
    for (const p of paths) await (await fetch(base + p, { headers: { Cookie: cookie } })).text(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const p = paths[i % paths.length]!;
      const start = performance.now();
      const res = await fetch(base + p, { headers: { Cookie: cookie } });
      await res.text();
      times.push(performance.now() - start);
      if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
    }
    times.sort((a, b) => a - b);
    const q = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))]!.toFixed(1);
    console.log(
      `${label.padEnd(46)} p50 ${q(0.5).padStart(7)} ms   p95 ${q(0.95).padStart(7)} ms   (${runs} requests)`,
    );
  }

  console.log(
    `\nWall time per request on loopback, ${MEMBERS} members, ${PAYMENTS} payments (wrangler dev, local D1):`,
  );
  await measure("baseline: a locale file (no D1, no render)", ["/locales/en/members"]);
  await measure("dashboard, all brands (/admin)", ["/admin"], 10);
  await measure("dashboard, one brand (/admin?brand=1)", ["/admin?brand=1"], 10);
  await measure("members, newest first", ["/admin/members"]);
  await measure("members, e-mail prefix", ["/admin/members?q=seed-m00a1%40", "/admin/members?q=seed-m1b2c%40"]);
  await measure("members, name prefix", ["/admin/members?q=Anna%201", "/admin/members?q=mila%2033"]);
  await measure("members, by payment id", [`/admin/members?q=${somePayment}`, `/admin/members?q=tr_${somePayment}`]);
  if (someMember) await measure("member page", [`/admin/members/${someMember}`]);
  console.log("\nD1 round trips (by construction): dashboard 3 (operator, overview batch, dashboard batch);");
  console.log("member search 2 (operator, one query or one batch); member page 2 (operator, one batch).");
} finally {
  process.kill(-server.pid!);
}
