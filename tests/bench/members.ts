/**
 * Members benchmark (docs/architecture/budgets.md §6): search with 100,000 seeded members and the profile page.
 * Seeds its own local state (.wrangler/bench-members), serves the built Worker with `wrangler dev`
 * and measures wall time per request on loopback (server time plus a local hop), after a warm-up.
 *
 *   npm run build && node_modules/.bin/node --experimental-strip-types tests/bench/members.ts [members=100000]
 */
import * as schema from "../../db/schema.ts";
import { INTERESTS } from "../../app/lib/constants.ts";
import { hashPassword } from "../../app/lib/password.ts";
import { benchPort, freshBrandState, loginCookie, measureWall, startBenchServer } from "./server.ts";

const N = Number(process.argv[2] ?? 100_000);
const PORT = benchPort(8825);
const STATE = ".wrangler/bench-members";
const PEPPER = "dev-pepper-not-for-production";
const COUNTRIES = [
  "NL",
  "NL",
  "NL",
  "DE",
  "DE",
  "BE",
  "AT",
  "CH",
  "FR",
  "IT",
  "ES",
  "PL",
  "DK",
  "FI",
  "NO",
  "SE",
  "GB",
  "IE",
];
const REGIONS = ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"];

const { DB, db, dispose } = await freshBrandState(STATE);
await db.insert(schema.interests).values(INTERESTS.map((id, sort) => ({ id, sort })));

// Deterministic pseudo-random data, written as literal multi-row inserts (fast, and no 100-parameter limit).
let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
const t0 = Date.now();
const CHUNK = 1000;
for (let start = 0; start < N; start += CHUNK) {
  const users: string[] = [];
  const profiles: string[] = [];
  for (let i = start; i < Math.min(N, start + CHUNK); i++) {
    const id = `bench-${i.toString(36).padStart(6, "0")}`;
    const year = 1950 + Math.floor(rnd() * 57);
    const dob = `${year}-${String(1 + Math.floor(rnd() * 12)).padStart(2, "0")}-${String(1 + Math.floor(rnd() * 28)).padStart(2, "0")}`;
    users.push(
      `('${id}', 1, '${id}@bench.example', 'x', ${rnd() < 0.1 ? 1 : 0}, 'confirmed', ${rnd() < 0.02 ? 1 : 0}, unixepoch() - ${Math.floor(rnd() * 86400 * 30)})`,
    );
    profiles.push(
      `('${id}', 'Member ${i}', '${rnd() < 0.5 ? "female" : "male"}', '${pick(["hetero", "hetero", "hetero", "bi", "gay", "lesbian"])}', '${dob}', '${pick(COUNTRIES)}', '${pick(REGIONS)}', 'City ${i % 500}')`,
    );
  }
  await DB.batch([
    DB.prepare(
      `INSERT INTO users (id, brand_id, email, password_hash, paid_user, status, invisible, last_seen_at) VALUES ${users.join(",")}`,
    ),
    DB.prepare(
      `INSERT INTO profiles (user_id, name, gender, sexuality, date_of_birth, country, region, city) VALUES ${profiles.join(",")}`,
    ),
  ]);
}
const viewerId = "bench-viewer";
await DB.batch([
  DB.prepare(
    "INSERT INTO users (id, brand_id, email, password_hash, status) VALUES (?1, 1, 'viewer@bench.example', ?2, 'confirmed')",
  ).bind(viewerId, await hashPassword("Bench-pass-2026", PEPPER)),
  DB.prepare(
    "INSERT INTO profiles (user_id, name, gender, date_of_birth, country) VALUES (?1, 'Viewer', 'male', '1985-01-01', 'NL')",
  ).bind(viewerId),
]);
await DB.prepare("ANALYZE").run();
const plan = await DB.prepare(
  `EXPLAIN QUERY PLAN SELECT p.user_id FROM profiles p INDEXED BY profiles_search JOIN users u ON u.id = p.user_id
   WHERE p.status = 'active' AND p.gender = 'female' AND p.country = 'NL' AND p.date_of_birth BETWEEN '1980-01-01' AND '2000-01-01'
     AND u.deleted_at IS NULL AND u.invisible = 0 ORDER BY p.date_of_birth DESC LIMIT 24`,
).all<{ detail: string }>();
console.log(`Seeded ${N} members in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`Search plan: ${plan.results.map((r) => r.detail).join(" | ")}`);
await dispose();

const server = await startBenchServer({ port: PORT, state: STATE, vars: { ENVIRONMENT: "test" } });
const { base } = server;
try {
  const cookie = await loginCookie(
    base,
    "/login",
    { email: "viewer@bench.example", password: "Bench-pass-2026" },
    "sid",
  );
  const measure = (label: string, paths: string[], runs = 40) => measureWall(base, cookie, label, paths, { runs });

  console.log(`\nWall time per request on loopback, ${N} members (wrangler dev, local D1):`);
  await measure("baseline: a locale file (no D1, no render)", ["/locales/en/members"]);
  await measure("baseline: /likes/matches (session + 1 query)", ["/likes/matches"]);
  await measure("search, country (default filters)", ["/members"]);
  await measure("search, country + age range", ["/members?gender=female&country=NL&min_age=30&max_age=40"]);
  await measure("search, country + region + age", [
    "/members?gender=female&country=DE&countryregion=05&min_age=25&max_age=45",
  ]);
  await measure("search, deep page (page 20)", ["/members?gender=female&country=NL&page=20"]);
  await measure("search, few matches (similar results)", [
    "/members?gender=male&country=IE&countryregion=03&min_age=98&max_age=99",
  ]);
  const ids = Array.from(
    { length: 20 },
    (_, i) => `/members/bench-${(i * Math.floor((N - 1) / 20)).toString(36).padStart(6, "0")}`,
  );
  await measure("profile page /members/{id}", ids);
  await measure("match finder", ["/match-finder"]);
  console.log(
    "\nD1 round trips per page (by construction): search 3 (session, searcher, one batch: page + count + regions)," +
      " 4 when few match (similar results); profile page 2 (session, one batch).",
  );
} finally {
  server.stop();
}
