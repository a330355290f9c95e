/**
 * The console's payments list on a big site (issue 22, decision 178): 100,000 members and 200,000
 * payments, seeded here with batched literal inserts into its own local state
 * (.wrangler/bench-admin-payments), served with `wrangler dev`; wall time per request on loopback for
 * the list (first page, filtered, deep keyset page) next to a trivial route.
 *
 *   npm run build && node --experimental-strip-types tests/bench/admin-payments.ts [members=100000] [payments=200000]
 */
import { execSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { drizzle } from "drizzle-orm/d1";
import { getPlatformProxy } from "wrangler";
import * as schema from "../../db/schema.ts";
import { brands, companies, packagePrices, packages } from "../../db/seed/brands.ts";
import { hashPassword } from "../../app/lib/password.ts";

const MEMBERS = Number(process.argv[2] ?? 100_000);
const PAYMENTS = Number(process.argv[3] ?? 200_000);
const PORT = Number(process.env.BENCH_PORT ?? 8836);
const STATE = ".wrangler/bench-admin-payments";
const PEPPER = "dev-pepper-not-for-production";
const COUNTRIES = ["NL", "NL", "NL", "DE", "DE", "BE", "AT", "FR", "IT", "ES", "PL", "SE"];
const METHODS = ["ideal", "ideal", "creditcard", "paypal", "bancontact", "sepa_directdebit"];
const STATUSES = ["paid", "paid", "paid", "paid", "failed", "canceled", "expired", "open"];
const PRICES = [995, 1995, 4995, 9995];

rmSync(STATE, { recursive: true, force: true });
execSync(`npx wrangler d1 migrations apply DB --local --persist-to ${STATE}`, { stdio: "ignore" });
const proxy = await getPlatformProxy<{ DB: D1Database }>({ persist: { path: `${STATE}/v3` } });
const { DB } = proxy.env;
const db = drizzle(DB, { schema });
await db.insert(schema.companies).values(companies);
for (const brand of brands) await db.insert(schema.brands).values(brand);
await db.insert(schema.packages).values(packages);
await db.insert(schema.packagePrices).values(packagePrices);
const brandIds = (await DB.prepare("SELECT id FROM brands").all<{ id: number }>()).results.map((b) => b.id);

// Deterministic pseudo-random rows as literal multi-row inserts (fast, no 100-parameter limit).
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
const t0 = Date.now();
const now = Math.floor(Date.now() / 1000);
const CHUNK = 1000;
for (let start = 0; start < MEMBERS; start += CHUNK) {
  const users: string[] = [];
  for (let i = start; i < Math.min(MEMBERS, start + CHUNK); i++) {
    const id = `bm-${i.toString(36).padStart(6, "0")}`;
    users.push(`('${id}', ${brandIds[i % brandIds.length]}, '${id}@bench.example', 'x', 'confirmed')`);
  }
  await DB.prepare(`INSERT INTO users (id, brand_id, email, password_hash, status) VALUES ${users.join(",")}`).run();
}
// Payment rows are long: 400 a statement keeps it under D1's 100 KB statement limit.
const PAY_CHUNK = 400;
for (let start = 0; start < PAYMENTS; start += PAY_CHUNK) {
  const rows: string[] = [];
  for (let i = start; i < Math.min(PAYMENTS, start + PAY_CHUNK); i++) {
    const user = Math.floor(rnd() * MEMBERS);
    const status = pick(STATUSES);
    const created = now - Math.floor(rnd() * 86_400 * 365);
    const paid = status === "paid" ? created + 60 : "NULL";
    rows.push(
      `('bp-${i.toString(36).padStart(7, "0")}', 'bm-${user.toString(36).padStart(6, "0")}', ${brandIds[user % brandIds.length]}, 'p1', 60, ${pick(PRICES)}, 'EUR', '${pick(METHODS)}', 'sandbox', '${status}', '${pick(COUNTRIES)}', ${created}, ${created}, ${paid})`,
    );
  }
  await DB.prepare(
    `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, payment_country, created_at, updated_at, paid_at) VALUES ${rows.join(",")}`,
  ).run();
}
await DB.prepare(
  "INSERT INTO operators (id, email, name, role, password_hash) VALUES ('bench-finance', 'finance@bench.example', 'Bench', 'finance', ?1)",
)
  .bind(await hashPassword("Bench-pass-2026", PEPPER))
  .run();
await DB.prepare("ANALYZE").run();
const plan = await DB.prepare(
  `EXPLAIN QUERY PLAN SELECT id FROM payments WHERE brand_id = 1 AND status = 'paid' ORDER BY created_at DESC, id DESC LIMIT 51`,
).all<{ detail: string }>();
console.log(`Seeded ${MEMBERS} members and ${PAYMENTS} payments in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`List plan (brand + status): ${plan.results.map((r) => r.detail).join(" | ")}`);
// A deep page: the keyset of the payment 150,000 rows down (or the last one on a smaller seed).
const deep = (
  await DB.prepare(
    `SELECT created_at || '.' || id AS k FROM payments ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?1`,
  )
    .bind(Math.min(150_000, PAYMENTS - 1))
    .first<{ k: string }>()
)?.k;
await proxy.dispose();

const server = spawn(
  "npx",
  [
    "wrangler",
    "dev",
    "--port",
    String(PORT),
    "--ip",
    "127.0.0.1",
    "--inspector-port",
    String(PORT + 1000),
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
    if (i > 120) throw new Error("wrangler dev did not start");
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
    body: new URLSearchParams({ email: "finance@bench.example", password: "Bench-pass-2026", code: "" }),
  });
  const cookie = (login.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  if (!cookie.startsWith("op_sid=")) throw new Error(`operator login failed: ${login.status}`);

  async function measure(label: string, path: string, runs = 40) {
    await (await fetch(base + path, { headers: { Cookie: cookie } })).text(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const res = await fetch(base + path, { headers: { Cookie: cookie }, redirect: "manual" });
      await res.text();
      times.push(performance.now() - start);
      if (res.status !== 200 && res.status !== 302) throw new Error(`${path}: ${res.status}`);
    }
    times.sort((a, b) => a - b);
    const q = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))]!.toFixed(1);
    console.log(
      `${label.padEnd(48)} p50 ${q(0.5).padStart(6)} ms   p95 ${q(0.95).padStart(6)} ms   (${runs} requests)`,
    );
  }
  console.log(`\nWall time per request on loopback, ${PAYMENTS} payments (wrangler dev, local D1):`);
  await measure("baseline: a locale file (no D1, no render)", "/locales/en/members");
  await measure("baseline: operator session only (export GET → 302)", "/admin/payments/export");
  await measure("payments list, first page", "/admin/payments");
  await measure("payments list, brand + status", `/admin/payments?brand=${brandIds[0]}&status=paid`);
  await measure("payments list, country + method + amount", "/admin/payments?country=DE&method=paypal&min=40&max=60");
  await measure("payments list, date range", "/admin/payments?from=2026-01-01&to=2026-01-31");
  if (deep) await measure("payments list, deep keyset page (up to 150,000 down)", `/admin/payments?after=${deep}`);
} finally {
  process.kill(-server.pid!);
}
