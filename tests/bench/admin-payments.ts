/**
 * The console's payments list on a big site (decision 178): 100,000 members and 200,000
 * payments, seeded here with batched literal inserts into its own local state
 * (.wrangler/bench-admin-payments), served with `wrangler dev`; wall time per request on loopback for
 * the list (first page, filtered, deep keyset page) next to a trivial route.
 *
 *   npm run build && node --experimental-strip-types tests/bench/admin-payments.ts [members=100000] [payments=200000]
 */
import { hashPassword } from "../../app/lib/password.ts";
import { benchPort, freshBrandState, loginCookie, measureWall, startBenchServer } from "./server.ts";

const MEMBERS = Number(process.argv[2] ?? 100_000);
const PAYMENTS = Number(process.argv[3] ?? 200_000);
const PORT = benchPort(8836);
const STATE = ".wrangler/bench-admin-payments";
const PEPPER = "dev-pepper-not-for-production";
const COUNTRIES = ["NL", "NL", "NL", "DE", "DE", "BE", "AT", "FR", "IT", "ES", "PL", "SE"];
const METHODS = ["ideal", "ideal", "creditcard", "paypal", "bancontact", "sepa_directdebit"];
const STATUSES = ["paid", "paid", "paid", "paid", "failed", "canceled", "expired", "open"];
const PRICES = [995, 1995, 4995, 9995];

const { DB, dispose } = await freshBrandState(STATE);
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
await dispose();

const server = await startBenchServer({ port: PORT, state: STATE, vars: { ENVIRONMENT: "test" } });
const { base } = server;
try {
  const cookie = await loginCookie(
    base,
    "/admin/login",
    { email: "finance@bench.example", password: "Bench-pass-2026", code: "" },
    "op_sid",
  );
  // The export GET answers a redirect: it measures the operator session alone.
  const measure = (label: string, path: string, runs = 40) =>
    measureWall(base, cookie, label, [path], { runs, redirects: true });
  console.log(`\nWall time per request on loopback, ${PAYMENTS} payments (wrangler dev, local D1):`);
  await measure("baseline: a locale file (no D1, no render)", "/locales/en/members");
  await measure("baseline: operator session only (export GET → 302)", "/admin/payments/export");
  await measure("payments list, first page", "/admin/payments");
  await measure("payments list, brand + status", `/admin/payments?brand=${brandIds[0]}&status=paid`);
  await measure("payments list, country + method + amount", "/admin/payments?country=DE&method=paypal&min=40&max=60");
  await measure("payments list, date range", "/admin/payments?from=2026-01-01&to=2026-01-31");
  if (deep) await measure("payments list, deep keyset page (up to 150,000 down)", `/admin/payments?after=${deep}`);
} finally {
  server.stop();
}
