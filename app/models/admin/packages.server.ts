/**
 * Packages, prices and payment methods from the console (decision 182): the rows
 * the shop and the checkout read (packagesStatement, methodRowsStatement), changed one guarded
 * statement at a time with its audit row in the same batch (`auditAfterChange`: a change refused by
 * its guard leaves no row). A payment keeps the amount and credits it was created with; nothing here
 * touches payments.
 */
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { getDb, schema, toStatement } from "../../../db/client";
import { PAYMENT_METHODS } from "~/lib/constants";
import { auditAfterChange, type Actor } from "./audit.server";

/** Sane bounds: no free or negative price, no absurd one (a typo of three zeros), whole cents. */
export const PRICE_MIN_CENTS = 100;
export const PRICE_MAX_CENTS = 500_000;
export const CREDITS_MIN = 1;
export const CREDITS_MAX = 100_000;

/** The provider's method id of ours (Mollie's cards are one method, "creditcard"); the rest are the same id. */
const PROVIDER_METHOD: Partial<Record<(typeof PAYMENT_METHODS)[number], string>> = {
  sepa_directdebit: "directdebit",
  wire_transfer: "banktransfer",
  mastercard: "creditcard",
  visa: "creditcard",
  maestro: "creditcard",
  carte_bancaire: "creditcard",
  dankort: "creditcard",
  nexi: "creditcard",
};
export const providerMethodOf = (method: (typeof PAYMENT_METHODS)[number]) => PROVIDER_METHOD[method] ?? method;

export type Change = "ok" | "stale" | "refused";

/**
 * The currencies a price may be set in: the ones the brands sell in and the ones already priced
 * (so an old price can still be changed or removed). Sorted, ISO 4217 as stored.
 */
export async function priceCurrencies(d1: D1Database) {
  const db = getDb(d1);
  const [brands, priced] = await db.batch([
    db.selectDistinct({ c: schema.brands.currency }).from(schema.brands),
    db.selectDistinct({ c: schema.packagePrices.currency }).from(schema.packagePrices),
  ]);
  const brandCurrencies = [...new Set(brands.map((r) => r.c))].sort();
  return { brandCurrencies, all: [...new Set([...brandCurrencies, ...priced.map((r) => r.c)])].sort() };
}

/**
 * Every package (tiers first, then the try-out) with its shared price per currency, its own price per
 * brand (decision 227; only those in the brand's currency count) and which brands sell in each currency.
 */
export async function packagesOverview(d1: D1Database) {
  const db = getDb(d1);
  const { packages: K, packagePrices: P, brands: B, packageBrandPrices: BP } = schema;
  const [pkgs, prices, brands, brandPrices] = await db.batch([
    db
      .select({ id: K.id, tier: K.tier, credits: K.credits, oneTime: K.oneTime })
      .from(K)
      .orderBy(asc(K.oneTime), asc(K.tier), asc(K.id)),
    db.select({ packageId: P.packageId, currency: P.currency, priceCents: P.priceCents }).from(P),
    db.select({ id: B.id, name: B.name, currency: B.currency }).from(B).orderBy(B.id),
    db
      .select({ packageId: BP.packageId, brandId: BP.brandId, priceCents: BP.priceCents })
      .from(BP)
      .innerJoin(B, and(eq(B.id, BP.brandId), eq(B.currency, BP.currency))),
  ]);
  const currencies = [...new Set([...brands.map((b) => b.currency), ...prices.map((p) => p.currency)])].sort();
  return {
    currencies,
    brandsByCurrency: Object.fromEntries(
      currencies.map((c) => [c, brands.filter((b) => b.currency === c).map((b) => b.name)]),
    ) as Record<string, string[]>,
    brands,
    packages: pkgs.map((p) => ({
      ...p,
      prices: Object.fromEntries(
        prices.filter((r) => r.packageId === p.id).map((r) => [r.currency, r.priceCents]),
      ) as Record<string, number>,
      brandPrices: Object.fromEntries(
        brandPrices.filter((r) => r.packageId === p.id).map((r) => [r.brandId, r.priceCents]),
      ) as Record<number, number>,
    })),
  };
}

// ─── Prices per brand (decision 227) ───

const brandById = (d1: D1Database, id: number) =>
  getDb(d1)
    .select({ id: schema.brands.id, currency: schema.brands.currency })
    .from(schema.brands)
    .where(eq(schema.brands.id, id))
    .get();

const brandPriceOf = (d1: D1Database, packageId: string, brandId: number) => {
  const BP = schema.packageBrandPrices;
  return getDb(d1)
    .select({ priceCents: BP.priceCents, currency: BP.currency })
    .from(BP)
    .where(and(eq(BP.packageId, packageId), eq(BP.brandId, brandId)))
    .get();
};

/**
 * A package's own price on one brand, in the brand's currency: it wins over the shared price there
 * (packagesStatement). Added, or changed guarded on the price read; audited in the same batch.
 */
export async function setBrandPrice(
  d1: D1Database,
  actor: Actor,
  packageId: string,
  brandId: number,
  priceCents: number,
): Promise<Change> {
  const [pkg, brand, before] = await Promise.all([
    packageById(d1, packageId),
    brandById(d1, brandId),
    brandPriceOf(d1, packageId, brandId),
  ]);
  if (!pkg || !brand) return "refused";
  const { currency } = brand;
  if (before?.priceCents === priceCents && before.currency === currency) return "ok";
  const db = getDb(d1);
  const BP = schema.packageBrandPrices;
  const audit = auditAfterChange(db, actor, {
    action: before ? "package.brand_price_change" : "package.brand_price_add",
    targetType: "package",
    targetId: packageId,
    before: before ? { brandId, currency: before.currency, priceCents: before.priceCents } : null,
    after: { brandId, currency, priceCents },
  });
  const [changed] = before
    ? await db.batch([
        db
          .update(BP)
          .set({ priceCents, currency })
          .where(
            and(
              eq(BP.packageId, packageId),
              eq(BP.brandId, brandId),
              eq(BP.priceCents, before.priceCents),
              eq(BP.currency, before.currency),
            ),
          ),
        audit,
      ])
    : await db.batch([db.insert(BP).values({ packageId, brandId, currency, priceCents }).onConflictDoNothing(), audit]);
  return changed.meta.changes === 1 ? "ok" : "stale";
}

/**
 * The brand goes back to the shared price of the package (or, without one in its currency, stops
 * selling it). Refused when that leaves the brand's shop without a package: guarded in the DELETE.
 */
export async function removeBrandPrice(
  d1: D1Database,
  actor: Actor,
  packageId: string,
  brandId: number,
): Promise<Change> {
  const [before, brand] = await Promise.all([brandPriceOf(d1, packageId, brandId), brandById(d1, brandId)]);
  if (!before || !brand) return "stale";
  const db = getDb(d1);
  const BP = schema.packageBrandPrices;
  // Still sold on the brand afterwards: this package at its shared price, or another listed package.
  const stillSold = sql`(
    EXISTS (SELECT 1 FROM packages k WHERE k.id = ${packageId} AND k.one_time = 1)
    OR EXISTS (SELECT 1 FROM package_prices pp WHERE pp.package_id = ${packageId} AND pp.currency = ${brand.currency})
    OR EXISTS (SELECT 1 FROM packages k WHERE k.one_time = 0 AND k.id <> ${packageId} AND (
      EXISTS (SELECT 1 FROM package_brand_prices b WHERE b.package_id = k.id AND b.brand_id = ${brandId} AND b.currency = ${brand.currency})
      OR EXISTS (SELECT 1 FROM package_prices pp WHERE pp.package_id = k.id AND pp.currency = ${brand.currency}))))`;
  const [removed] = await db.batch([
    db
      .delete(BP)
      .where(
        and(eq(BP.packageId, packageId), eq(BP.brandId, brandId), eq(BP.priceCents, before.priceCents), stillSold),
      ),
    auditAfterChange(db, actor, {
      action: "package.brand_price_remove",
      targetType: "package",
      targetId: packageId,
      before: { brandId, currency: before.currency, priceCents: before.priceCents },
      after: null,
    }),
  ]);
  if (removed.meta.changes === 1) return "ok";
  return (await brandPriceOf(d1, packageId, brandId))?.priceCents === before.priceCents ? "refused" : "stale";
}

export const PACKAGE_ID = /^[a-z0-9][a-z0-9_-]{1,15}$/;

/**
 * A new package (decision 227), on sale at once: with a shared price in `currency` (every brand selling
 * in it), or only on the chosen brands (each selling in `currency`) at their own price. The package row,
 * its audit row and its prices in one batch; the prices only follow a package row this batch wrote
 * (a taken id changes nothing).
 */
export async function addPackage(
  d1: D1Database,
  actor: Actor,
  p: {
    id: string;
    tier: (typeof schema.packages.tier.enumValues)[number];
    credits: number;
    currency: string;
    priceCents: number;
    brandIds: number[] | null;
  },
): Promise<Change> {
  const db = getDb(d1);
  const { all } = await priceCurrencies(d1);
  if (!PACKAGE_ID.test(p.id) || !all.includes(p.currency) || (await packageById(d1, p.id))) return "refused";
  if (p.brandIds) {
    const brands = await db
      .select({ id: schema.brands.id, currency: schema.brands.currency })
      .from(schema.brands)
      .where(inArray(schema.brands.id, p.brandIds));
    if (brands.length !== p.brandIds.length || brands.some((b) => b.currency !== p.currency)) return "refused";
  }
  const K = schema.packages;
  // Guarded chain: each price row only after the statement before it wrote a row (changes() = 1), so a
  // taken id (no package row, no audit row) adds no price to someone else's package.
  const sharedPrice = `INSERT INTO package_prices (package_id, currency, price_cents) SELECT ?1, ?2, ?3 WHERE changes() = 1`;
  const brandPrice = `INSERT INTO package_brand_prices (package_id, brand_id, currency, price_cents) SELECT ?1, ?4, ?2, ?3 WHERE changes() = 1`;
  const prices = (p.brandIds ?? [null]).map((brandId) => {
    // oxlint-disable-next-line no-restricted-properties -- guards: only after this batch wrote the package, its audit row and the price before it (changes() = 1)
    const stmt = d1.prepare(brandId === null ? sharedPrice : brandPrice);
    return brandId === null
      ? stmt.bind(p.id, p.currency, p.priceCents)
      : stmt.bind(p.id, p.currency, p.priceCents, brandId);
  });
  const [inserted] = await d1.batch([
    toStatement(
      d1,
      db
        .insert(K)
        .values({
          id: p.id,
          tier: p.tier,
          credits: p.credits,
          priceCents: p.priceCents,
          currency: p.currency,
          oneTime: false,
        })
        .onConflictDoNothing(),
    ),
    toStatement(
      d1,
      auditAfterChange(db, actor, {
        action: "package.add",
        targetType: "package",
        targetId: p.id,
        before: null,
        after: {
          tier: p.tier,
          credits: p.credits,
          currency: p.currency,
          priceCents: p.priceCents,
          brandIds: p.brandIds,
        },
      }),
    ),
    ...prices,
  ]);
  return inserted!.meta.changes === 1 ? "ok" : "stale";
}

const packageById = (d1: D1Database, id: string) =>
  getDb(d1).select({ credits: schema.packages.credits }).from(schema.packages).where(eq(schema.packages.id, id)).get();

const priceOf = (d1: D1Database, packageId: string, currency: string) => {
  const P = schema.packagePrices;
  return getDb(d1)
    .select({ priceCents: P.priceCents })
    .from(P)
    .where(and(eq(P.packageId, packageId), eq(P.currency, currency)))
    .get();
};

/** A package's credits; guarded on the value read, so two operators at once cannot both "win". */
export async function setPackageCredits(d1: D1Database, actor: Actor, id: string, credits: number): Promise<Change> {
  const before = await packageById(d1, id);
  if (!before) return "refused";
  if (before.credits === credits) return "ok";
  const db = getDb(d1);
  const K = schema.packages;
  const [changed] = await db.batch([
    db
      .update(K)
      .set({ credits })
      .where(and(eq(K.id, id), eq(K.credits, before.credits))),
    auditAfterChange(db, actor, {
      action: "package.credits",
      targetType: "package",
      targetId: id,
      before: { credits: before.credits },
      after: { credits },
    }),
  ]);
  return changed.meta.changes === 1 ? "ok" : "stale";
}

/**
 * A package's price in one currency: added when it has none there (the package is sold there from
 * now on), else changed, guarded on the price read. Payments already created keep their amount.
 */
export async function setPackagePrice(
  d1: D1Database,
  actor: Actor,
  packageId: string,
  currency: string,
  priceCents: number,
): Promise<Change> {
  const [pkg, before, { all }] = await Promise.all([
    packageById(d1, packageId),
    priceOf(d1, packageId, currency),
    priceCurrencies(d1),
  ]);
  if (!pkg || !all.includes(currency)) return "refused";
  if (before?.priceCents === priceCents) return "ok";
  const db = getDb(d1);
  const P = schema.packagePrices;
  const audit = auditAfterChange(db, actor, {
    action: before ? "package.price_change" : "package.price_add",
    targetType: "package",
    targetId: packageId,
    before: before ? { currency, priceCents: before.priceCents } : null,
    after: { currency, priceCents },
  });
  const [changed] = before
    ? await db.batch([
        db
          .update(P)
          .set({ priceCents })
          .where(and(eq(P.packageId, packageId), eq(P.currency, currency), eq(P.priceCents, before.priceCents))),
        audit,
      ])
    : await db.batch([db.insert(P).values({ packageId, currency, priceCents }).onConflictDoNothing(), audit]);
  return changed.meta.changes === 1 ? "ok" : "stale";
}

/**
 * Stops selling a package in a currency (its price row goes). Refused for the last listed package of
 * a currency a brand sells in: that brand's shop would be empty. Guarded in the statement itself.
 */
export async function removePackagePrice(
  d1: D1Database,
  actor: Actor,
  packageId: string,
  currency: string,
): Promise<Change> {
  const before = await priceOf(d1, packageId, currency);
  if (!before) return "stale";
  const db = getDb(d1);
  const { packagePrices: P, packages: K, brands: B } = schema;
  const others = db
    .select({ one: sql`1` })
    .from(P)
    .innerJoin(K, eq(K.id, P.packageId))
    .where(and(eq(P.currency, currency), eq(K.oneTime, false), ne(P.packageId, packageId)));
  const [removed] = await db.batch([
    db.delete(P).where(
      and(
        eq(P.packageId, packageId),
        eq(P.currency, currency),
        eq(P.priceCents, before.priceCents),
        sql`(${db.select({ t: K.oneTime }).from(K).where(eq(K.id, packageId))} = 1
            OR NOT EXISTS ${db
              .select({ one: sql`1` })
              .from(B)
              .where(eq(B.currency, currency))}
            OR EXISTS ${others})`,
      ),
    ),
    auditAfterChange(db, actor, {
      action: "package.price_remove",
      targetType: "package",
      targetId: packageId,
      before: { currency, priceCents: before.priceCents },
      after: null,
    }),
  ]);
  if (removed.meta.changes === 1) return "ok";
  return (await priceOf(d1, packageId, currency))?.priceCents === before.priceCents ? "refused" : "stale";
}

// ─── Payment methods per country ───

/** Every row of payment_methods, by country ("*" = every other country, last) and sort. */
export async function methodsOverview(d1: D1Database) {
  const M = schema.paymentMethods;
  const rows = await getDb(d1)
    .select()
    .from(M)
    .orderBy(sql`${M.country} = '*'`, asc(M.country), asc(M.sort), asc(M.method));
  const countries = [...new Set(rows.map((r) => r.country))];
  return { countries, rows };
}

const countryRows = (d1: D1Database, country: string) => {
  const M = schema.paymentMethods;
  return getDb(d1)
    .select({ method: M.method, sort: M.sort })
    .from(M)
    .where(eq(M.country, country))
    .orderBy(asc(M.sort), asc(M.method));
};

/** "method:sort,…" of a country in method order: the guard that the order is still the one read. */
const orderSignature = (rows: { method: string; sort: number }[]) =>
  [...rows]
    .sort((a, b) => (a.method < b.method ? -1 : 1))
    .map((r) => `${r.method}:${r.sort}`)
    .join(",");

/**
 * Moves a method one place up or down in its country's list. The list is renumbered 1…n (old data may
 * hold equal sorts) in one UPDATE, guarded on the whole order read (another operator's move meanwhile
 * makes it change nothing).
 */
export async function moveMethod(
  d1: D1Database,
  actor: Actor,
  country: string,
  method: string,
  direction: "up" | "down",
): Promise<Change> {
  const rows = await countryRows(d1, country);
  const at = rows.findIndex((r) => r.method === method);
  const to = direction === "up" ? at - 1 : at + 1;
  if (at < 0 || to < 0 || to >= rows.length) return "refused";
  const order = rows.map((r) => r.method);
  [order[at], order[to]] = [order[to]!, order[at]!];
  const moved = order.flatMap((m, i) =>
    rows.find((r) => r.method === m)!.sort === i + 1 ? [] : [[m, i + 1] as const],
  );
  const db = getDb(d1);
  const M = schema.paymentMethods;
  // The order as stored now, in method order ("ideal:1,paypal:2"): compared with the one read.
  const signature = sql`(SELECT group_concat(method || ':' || sort, ',') FROM
    (SELECT method, sort FROM payment_methods WHERE country = ${country} ORDER BY method))`;
  const [changed] = await db.batch([
    db
      .update(M)
      .set({
        sort: sql`CASE ${M.method} ${sql.join(
          moved.map(([m, s]) => sql`WHEN ${m} THEN ${s}`),
          sql` `,
        )} END`,
      })
      .where(
        and(
          eq(M.country, country),
          inArray(
            M.method,
            moved.map(([m]) => m),
          ),
          sql`${signature} = ${orderSignature(rows)}`,
        ),
      ),
    auditAfterChange(db, actor, {
      action: "method.move",
      targetType: "payment_methods",
      targetId: country,
      before: { order: rows.map((r) => r.method) },
      after: { order },
    }),
  ]);
  return changed.meta.changes === moved.length ? "ok" : "stale";
}

/** Switches a country's method on or off (the checkout lists only switched-on rows). Guarded on the current state. */
export async function setMethodEnabled(
  d1: D1Database,
  actor: Actor,
  country: string,
  method: string,
  enabled: boolean,
): Promise<Change> {
  const db = getDb(d1);
  const M = schema.paymentMethods;
  const [changed] = await db.batch([
    db
      .update(M)
      .set({ enabled })
      .where(and(eq(M.country, country), eq(M.method, method), eq(M.enabled, !enabled))),
    auditAfterChange(db, actor, {
      action: enabled ? "method.enable" : "method.disable",
      targetType: "payment_methods",
      targetId: country,
      before: { method, enabled: !enabled },
      after: { method, enabled },
    }),
  ]);
  return changed.meta.changes === 1 ? "ok" : "stale";
}

/**
 * Adds a method at the end of a country's list. A country without a list of its own uses the "*"
 * list (methodRowsStatement), so its first own row starts as a copy of "*": adding iDEAL for France
 * must not take every other method away there. Currencies: as given, else as the method accepts
 * elsewhere, else any.
 */
export async function addMethod(
  d1: D1Database,
  actor: Actor,
  country: string,
  method: (typeof PAYMENT_METHODS)[number],
  currencies: string[] | null,
): Promise<Change> {
  const db = getDb(d1);
  const M = schema.paymentMethods;
  const [own, elsewhere] = await db.batch([
    db.select({ method: M.method }).from(M).where(eq(M.country, country)),
    db.select({ currencies: M.currencies }).from(M).where(eq(M.method, method)).limit(1),
  ]);
  if (own.some((r) => r.method === method)) return "refused";
  const accepted = currencies?.length ? currencies.join(",") : (elsewhere[0]?.currencies ?? null);
  const insert = db
    .insert(M)
    .values({
      country,
      method,
      providerMethod: providerMethodOf(method),
      sort: nextSort(country),
      enabled: true,
      currencies: accepted,
    })
    .onConflictDoNothing();
  const copied = own.length === 0 && country !== "*";
  const audit = auditAfterChange(db, actor, {
    action: "method.add",
    targetType: "payment_methods",
    targetId: country,
    before: own.length ? { methods: own.map((r) => r.method) } : null,
    after: { method, currencies: accepted, ...(copied ? { copiedFrom: "*" } : {}) },
  });
  if (!copied) {
    const [inserted] = await db.batch([insert, audit]);
    return inserted.meta.changes === 1 ? "ok" : "stale";
  }
  const copy = db
    .insert(M)
    .select(
      db
        .select({
          country: sql`${country}`.as("country"),
          method: M.method,
          providerMethod: M.providerMethod,
          sort: M.sort,
          enabled: M.enabled,
          currencies: M.currencies,
        })
        .from(M)
        .where(and(eq(M.country, "*"), ne(M.method, method))),
    )
    .onConflictDoNothing();
  const [, inserted] = await db.batch([copy, insert, audit]);
  return inserted.meta.changes === 1 ? "ok" : "stale";
}

/** The end of a country's list, read in the insert itself. */
const nextSort = (country: string) =>
  sql<number>`(SELECT COALESCE(MAX(sort), 0) + 1 FROM payment_methods WHERE country = ${country})`;
