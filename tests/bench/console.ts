/**
 * Console benchmark (decision 177): the dashboard and the member search on a big site
 * (100,000 members, 200,000 payments by default, seeded by seed-console.ts), next to a trivial route.
 * Seeds its own local state (.wrangler/bench-console), serves the built Worker with `wrangler dev` on
 * BENCH_PORT (default 8835) and measures wall time per request on loopback after a warm-up.
 *
 *   npm run build && node --experimental-strip-types tests/bench/console.ts [members=100000] [payments=200000]
 */
import { hashPassword } from "../../app/lib/password.ts";
import { seedConsoleData } from "./seed-console.ts";
import { benchPort, freshBrandState, loginCookie, measureWall, startBenchServer } from "./server.ts";

const MEMBERS = Number(process.argv[2] ?? 100_000);
const PAYMENTS = Number(process.argv[3] ?? 200_000);
const PORT = benchPort(8835);
const STATE = ".wrangler/bench-console";
const PEPPER = "dev-pepper-not-for-production";
const PASSWORD = "Bench-pass-2026";

const { DB, dispose } = await freshBrandState(STATE);
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
await dispose();

const server = await startBenchServer({ port: PORT, state: STATE, vars: { ENVIRONMENT: "test" } });
const { base } = server;
try {
  const cookie = await loginCookie(
    base,
    "/admin/login",
    { email: "support@bench.example", password: PASSWORD, code: "" },
    "op_sid",
  );

  const measure = (label: string, paths: string[], runs = 30) => measureWall(base, cookie, label, paths, { runs });

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
  server.stop();
}
