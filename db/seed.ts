/**
 * Seeds the local D1 (and R2) that `wrangler dev` uses, through wrangler's getPlatformProxy().
 * `--if-empty` seeds only a database without brands (what `npm start` runs). Demo accounts are
 * never seeded in production.
 */
import { drizzle } from "drizzle-orm/d1";
import { getPlatformProxy } from "wrangler";
import * as schema from "./schema.ts";
import { brands, companies, packages } from "./seed/brands.ts";
import { INTERESTS } from "../app/lib/constants.ts";

const ifEmpty = process.argv.includes("--if-empty");
const proxy = await getPlatformProxy<{ DB: D1Database; PHOTOS: R2Bucket; ENVIRONMENT: string; PASSWORD_PEPPER: string }>({
  persist: process.env.WRANGLER_PERSIST ? { path: process.env.WRANGLER_PERSIST } : true,
});
const { DB, PHOTOS } = proxy.env;
if (proxy.env.ENVIRONMENT === "production") throw new Error("Refusing to seed demo data in production");

const existing = await DB.prepare("SELECT COUNT(*) AS n FROM brands").first<{ n: number }>();
if (ifEmpty && existing && existing.n > 0) {
  console.log("Database already seeded; skipping (npm run db:seed to reseed).");
  await proxy.dispose();
  process.exit(0);
}

const db = drizzle(DB, { schema });
const t0 = Date.now();
// Start from scratch: children first.
const TABLES = [
  "photo_unlocks", "mail_outbox", "push_subscriptions", "notifications_disabled", "discount_redemptions", "payments",
  "credit_ledger", "messages", "conversation_members", "conversations", "reports", "blocks", "swipe_passes", "likes",
  "refunds", "payment_customers", "sandbox_objects", "counters", "tokens", "sessions", "photos", "profile_interests", "profiles", "users", "packages", "interests",
  "cities", "regions", "brands", "companies",
];
// The built-in codes (TIMEBONUS25, WELCOME25) come from a migration and stay; personal codes go.
await DB.batch([
  ...TABLES.slice(0, 6).map((table) => DB.prepare(`DELETE FROM ${table}`)),
  DB.prepare("DELETE FROM discount_codes WHERE user_id IS NOT NULL"),
  ...TABLES.slice(6).map((table) => DB.prepare(`DELETE FROM ${table}`)),
]);

await db.insert(schema.companies).values(companies);
for (const brand of brands) await db.insert(schema.brands).values(brand); // D1 binds at most 100 parameters a query
await db.insert(schema.packages).values(packages);
await db.insert(schema.interests).values(INTERESTS.map((id, sort) => ({ id, sort })));

const { seedMembers } = await import("./seed/members.ts");
const result = await seedMembers({ DB, PHOTOS, db, pepper: proxy.env.PASSWORD_PEPPER });

const counts = await DB.batch(
  ["regions", "cities", "users", "profiles", "profile_interests", "photos", "likes", "conversations", "messages"].map((table) =>
    DB.prepare(`SELECT '${table}' AS name, COUNT(*) AS n FROM ${table}`),
  ),
);
console.log(counts.map((r) => `${(r.results[0] as { name: string }).name} ${(r.results[0] as { n: number }).n}`).join(", "));
console.log(Object.entries(result.timings).map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`).join(", "));
console.log(`Demo accounts (password ${result.demoPassword}) on http://localhost:8787: ${result.demoEmails.join(", ")}`);
console.log(`Seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
await proxy.dispose();
