/**
 * Seeds the local D1 (and R2) that `wrangler dev` uses, through wrangler's getPlatformProxy().
 * `--if-empty` (what `npm start` runs) skips only a database whose seed finished: the completion
 * mark is written last, a half-seeded database is seeded again from scratch, and a lost connection
 * to the local proxy is retried by starting over. Demo accounts are never seeded in staging or production.
 */
import { drizzle } from "drizzle-orm/d1";
import { getPlatformProxy } from "wrangler";
import * as schema from "./schema.ts";
import { brands, companies, packagePrices, packages } from "./seed/brands.ts";
import { INTERESTS } from "../app/lib/constants.ts";
import { SEED_MARK, shouldSeed, withRetries } from "./seed/complete.ts";
import { isDeployed } from "../app/lib/env.ts";

const ifEmpty = process.argv.includes("--if-empty");
// The pending migrations first, through this seed's runtime (db/seed/migrate.ts; tests/e2e/server.sh).
const migrate = process.argv.includes("--migrate");
type SeedEnv = { DB: D1Database; PHOTOS: R2Bucket; ENVIRONMENT: string; PASSWORD_PEPPER: string };
const openProxy = () =>
  getPlatformProxy<SeedEnv>({ persist: process.env.WRANGLER_PERSIST ? { path: process.env.WRANGLER_PERSIST } : true });

// Tables from scratch, children first.
const TABLES = [
  "operator_sessions",
  "notification_log",
  "sms_outbox",
  "directdebit_requests",
  "photo_unlocks",
  "mail_outbox",
  "push_subscriptions",
  "notifications_disabled",
  "discount_redemptions",
  "payments",
  "credit_ledger",
  "messages",
  "conversation_members",
  "conversations",
  "reports",
  "blocks",
  "swipe_passes",
  "likes",
  "refunds",
  "payment_customers",
  "sandbox_objects",
  "counters",
  "tokens",
  "sessions",
  "photos",
  "profile_interests",
  "profiles",
  "users",
  "package_prices",
  "packages",
  "interests",
  "cities",
  "regions",
  "brands",
  "companies",
];

/** One attempt: clean state, everything, and the completion mark last (db/seed/complete.ts). */
async function seedOnce(attempt: number): Promise<boolean> {
  const proxy = await openProxy();
  try {
    const { DB, PHOTOS } = proxy.env;
    // Demo members with known passwords must never reach a deployed database (staging or production).
    if (isDeployed(proxy.env as { ENVIRONMENT: "production" }))
      throw new Error(`Refusing to seed demo data in ${proxy.env.ENVIRONMENT}`);
    if (migrate) {
      const { applyMigrations } = await import("./seed/migrate.ts");
      const t = Date.now();
      const applied = await applyMigrations(DB);
      console.log(`Migrations applied: ${applied.length} in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    }
    const mark = await DB.prepare("SELECT 1 AS done FROM counters WHERE key = ?1")
      .bind(SEED_MARK.key)
      .first()
      .catch(() => null);
    if (!shouldSeed({ ifEmpty, marked: mark !== null })) {
      console.log("Database already seeded; skipping (npm run db:seed to reseed).");
      // A database seeded before migration 0019 gets the demo operators (decision 167).
      const { seedOperators } = await import("./seed/operators.ts");
      const { DEMO_PASSWORD } = await import("./seed/demo.ts");
      const added = await seedOperators(DB, proxy.env.PASSWORD_PEPPER, DEMO_PASSWORD);
      if (added) console.log(`Demo operators added: ${added}`);
      // A database seeded before migration 0014 gets its regions' names (decision 133).
      if (!(await DB.prepare("SELECT 1 FROM regions WHERE names != '{}' LIMIT 1").first())) {
        const { fillRegionNames } = await import("./seed/geo.ts");
        console.log(`Region names added: ${await fillRegionNames(DB)}`);
      }
      return false;
    }
    const brandsLeft = await DB.prepare("SELECT COUNT(*) AS n FROM brands").first<{ n: number }>();
    if (attempt > 1 || (ifEmpty && brandsLeft && brandsLeft.n > 0))
      console.log("An earlier seed did not finish: starting over.");
    const db = drizzle(DB, { schema });
    const t0 = Date.now();
    // The built-in codes (TIMEBONUS25, WELCOME25) come from a migration and stay; personal codes go.
    const del = (table: string) => DB.prepare(`DELETE FROM ${table}`);
    const afterPayments = TABLES.indexOf("payments") + 1;
    await DB.batch([
      ...TABLES.slice(0, afterPayments).map(del),
      DB.prepare("DELETE FROM discount_codes WHERE user_id IS NOT NULL"),
      ...TABLES.slice(afterPayments).map(del),
    ]);

    await db.insert(schema.companies).values(companies);
    for (const brand of brands) await db.insert(schema.brands).values(brand); // D1 binds at most 100 parameters a query
    await db.insert(schema.packages).values(packages);
    await db.insert(schema.packagePrices).values(packagePrices);
    await db.insert(schema.interests).values(INTERESTS.map((id, sort) => ({ id, sort })));

    const { seedMembers } = await import("./seed/members.ts");
    const result = await seedMembers({ DB, PHOTOS, db, pepper: proxy.env.PASSWORD_PEPPER });
    const { seedOperators } = await import("./seed/operators.ts");
    await seedOperators(DB, proxy.env.PASSWORD_PEPPER, result.demoPassword);

    // Last: only a seed that got here counts as done.
    await DB.prepare("INSERT INTO counters (key, count, expires_at) VALUES (?1, 1, ?2)")
      .bind(SEED_MARK.key, SEED_MARK.expiresAt)
      .run();

    const counts = await DB.batch(
      [
        "regions",
        "cities",
        "users",
        "profiles",
        "profile_interests",
        "photos",
        "likes",
        "conversations",
        "messages",
      ].map((table) => DB.prepare(`SELECT '${table}' AS name, COUNT(*) AS n FROM ${table}`)),
    );
    console.log(
      counts.map((r) => `${(r.results[0] as { name: string }).name} ${(r.results[0] as { n: number }).n}`).join(", "),
    );
    console.log(
      Object.entries(result.timings)
        .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`)
        .join(", "),
    );
    console.log(
      `Demo accounts (password ${result.demoPassword}) on http://localhost:8787: ${result.demoEmails.join(", ")}`,
    );
    console.log(
      "Demo operators (same password) on http://localhost:8787/admin: operator@ (admin), moderator@, support@, finance@example.com",
    );
    console.log(`Seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return true;
  } finally {
    await proxy.dispose().catch(() => {});
  }
}

await withRetries(3, seedOnce, (e, n) =>
  console.warn(`Seeding attempt ${n} lost its connection (${(e as Error).message}); starting over.`),
);
