/**
 * A big site for the console's bench (decision 177), reusable by any console page's bench or test:
 * members spread over the brands and the last 90 days, and payments over the last 60 days (mostly
 * paid; some refunded with their refund row, some charged back, the rest failed or canceled), written
 * as literal multi-row INSERTs in batches (fast, and no 100-parameter limit). Deterministic.
 *
 *   import { seedConsoleData } from "./seed-console.ts";
 *   await seedConsoleData(DB, { members: 100_000, payments: 200_000 });
 */

export type ConsoleSeed = {
  members: number;
  payments: number;
  /** Seconds; the seeded history ends here. */
  now?: number;
  /** Prefix of every seeded id (members `${prefix}m…`, payments `${prefix}p…`), so seeds can sit side by side. */
  prefix?: string;
  /** Only these brands (default: every brand in the table). */
  brandIds?: number[];
  seed?: number;
};

export type ConsoleSeedResult = { members: number; payments: number; refunds: number; chargebacks: number };

const DAY = 86_400;
const ROWS_PER_STATEMENT = 500;
const STATEMENTS_PER_BATCH = 10;
const NAMES = ["Anna", "Mark", "Sophie", "Lukas", "Emma", "Jonas", "Mila", "Noah", "Lea", "Finn", "Sara", "Tim"];
const METHODS = ["ideal", "creditcard", "bancontact", "paypal", "sepa_directdebit"];

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

async function insertAll(DB: D1Database, head: string, rows: string[]) {
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT)
    statements.push(DB.prepare(`${head} VALUES ${rows.slice(i, i + ROWS_PER_STATEMENT).join(",")}`));
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH)
    await DB.batch(statements.slice(i, i + STATEMENTS_PER_BATCH));
}

export async function seedConsoleData(DB: D1Database, o: ConsoleSeed): Promise<ConsoleSeedResult> {
  const now = o.now ?? Math.floor(Date.now() / 1000);
  const prefix = o.prefix ?? "seed-";
  let state = o.seed ?? 7;
  const rnd = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;

  const brandRows = (
    await DB.prepare("SELECT id, currency FROM brands ORDER BY id").all<{ id: number; currency: string }>()
  ).results;
  const brands = o.brandIds ? brandRows.filter((b) => o.brandIds!.includes(b.id)) : brandRows;
  if (!brands.length) throw new Error("seedConsoleData: no brands (seed the brands first)");
  const pkgs = (
    await DB.prepare("SELECT package_id AS id, currency, price_cents AS cents FROM package_prices").all<{
      id: string;
      currency: string;
      cents: number;
    }>()
  ).results;
  const credits: Record<string, number> = Object.fromEntries(
    (await DB.prepare("SELECT id, credits FROM packages").all<{ id: string; credits: number }>()).results.map((p) => [
      p.id,
      p.credits,
    ]),
  );

  const memberBrand: number[] = [];
  for (let start = 0; start < o.members; start += 5000) {
    const users: string[] = [];
    const profiles: string[] = [];
    for (let i = start; i < Math.min(o.members, start + 5000); i++) {
      const id = `${prefix}m${i.toString(36).padStart(5, "0")}`;
      const brand = brands[i % brands.length]!;
      memberBrand.push(brand.id);
      const created = now - Math.floor(rnd() * 90 * DAY);
      const name = `${pick(NAMES)} ${i}`;
      users.push(
        `(${q(id)}, ${brand.id}, ${q(`${id}@seed.example`)}, 'x', ${q(rnd() < 0.7 ? "confirmed" : "not_confirmed")}, ${created}, ${created})`,
      );
      profiles.push(
        `(${q(id)}, ${q(name)}, ${q(rnd() < 0.5 ? "female" : "male")}, '1985-06-01', ${q(pick(["NL", "DE", "SE", "FR"]))})`,
      );
    }
    await insertAll(
      DB,
      "INSERT INTO users (id, brand_id, email, password_hash, status, created_at, last_seen_at)",
      users,
    );
    await insertAll(DB, "INSERT INTO profiles (user_id, name, gender, date_of_birth, country)", profiles);
  }

  let refundCount = 0;
  let chargebackCount = 0;
  for (let start = 0; start < o.payments; start += 5000) {
    const payments: string[] = [];
    const refunds: string[] = [];
    for (let i = start; i < Math.min(o.payments, start + 5000); i++) {
      const id = `${prefix}p${i.toString(36).padStart(5, "0")}`;
      const m = Math.floor(rnd() * o.members);
      const userId = `${prefix}m${m.toString(36).padStart(5, "0")}`;
      const brandId = memberBrand[m]!;
      const currency = brands.find((b) => b.id === brandId)!.currency;
      const options = pkgs.filter((p) => p.currency === currency);
      const pkg = pick(options.length ? options : pkgs);
      const created = now - Math.floor(rnd() * 60 * DAY);
      const r = rnd();
      const status =
        r < 0.85 ? "paid" : r < 0.9 ? "refunded" : r < 0.91 ? "charged_back" : r < 0.96 ? "failed" : "canceled";
      const paid = status === "paid" || status === "refunded" || status === "charged_back";
      const paidAt = paid ? created + 60 : null;
      const updated =
        status === "refunded" || status === "charged_back" ? Math.min(now, created + 3 * DAY) : created + 60;
      payments.push(
        `(${q(id)}, ${q(userId)}, ${brandId}, ${q(pkg.id)}, ${credits[pkg.id] ?? 0}, ${pkg.cents}, ${q(pkg.currency)}, ${q(pick(METHODS))}, 'sandbox', ${q(`tr_${id}`)}, ${q(status)}, ${status === "charged_back" ? pkg.cents : "NULL"}, ${paidAt ?? "NULL"}, ${created}, ${updated})`,
      );
      if (status === "charged_back") chargebackCount++;
      if (status === "refunded") {
        refundCount++;
        refunds.push(
          `(${q(`${id}-r`)}, ${q(id)}, ${q(userId)}, ${credits[pkg.id] ?? 0}, ${pkg.cents}, ${q(pkg.currency)}, 'refunded', ${updated})`,
        );
      }
    }
    await insertAll(
      DB,
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref,
        status, charged_back_cents, paid_at, created_at, updated_at)`,
      payments,
    );
    if (refunds.length)
      await insertAll(
        DB,
        "INSERT INTO refunds (id, payment_id, user_id, credits, amount_cents, currency, status, created_at)",
        refunds,
      );
  }
  return { members: o.members, payments: o.payments, refunds: refundCount, chargebacks: chargebackCount };
}
