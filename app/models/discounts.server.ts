/**
 * Discount codes (docs/product/data.md §3, docs/product/states.md §4, docs/product/validation.md §5 and docs/product/limits.md §9): the member's active discount (the welcome offer), checking a code a member typed, and the statements that make a once-per-member code
 * usable once. The pure rules (who gets which bonus, the price arithmetic) live in app/lib/offers.ts.
 *
 * Once per member is enforced in D1 statements, so racing requests cannot slip through:
 * - a payment may carry a once-per-member code only if the member has no redemption of it and no other
 *   open or pending payment carrying it (`claimGuardSql`, a condition of the payment's INSERT);
 * - the completed payment's batch writes the redemption (`redemptionStatement`); the primary key
 *   (code_id, user_id) keeps one row however many completions race.
 */
import { nowS } from "~/lib/dates";
import {
  activeDiscount,
  discountedPrice,
  percentageBasisPoints,
  WELCOME_CODE,
  welcomeDiscount,
  type ActiveDiscount,
  type OfferMember,
} from "~/lib/offers";
import type { Language } from "~/lib/constants";
import { and, desc, eq, inArray, isNotNull, notExists, notInArray, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { toPackage, type PackageRow } from "./shop.server";
import { auditAfterChange, type Actor } from "./admin/audit.server";

type CodeRow = typeof schema.discountCodes.$inferSelect;

export type DiscountMember = OfferMember & { id: string };
export type DiscountBrand = { welcomeDiscountS: number };
/** The brand an order is made on: a code restricted to brands (decision 227) applies on those only. */
export type OrderBrand = DiscountBrand & { id: number };

/** The spec's discount code fields (docs/product/data.md §3), as /api/discountcode.php answers them. */
export function discountCodeFields(
  member: DiscountMember,
  brand: DiscountBrand,
  o: { welcome?: boolean; now?: number } = {},
) {
  const now = o.now ?? nowS();
  const d: ActiveDiscount | null = o.welcome
    ? welcomeDiscount(member, brand.welcomeDiscountS, now)
    : activeDiscount(member, brand.welcomeDiscountS, now);
  if (!d) return null;
  return {
    code: d.code,
    value_percentage: String(d.percentage),
    minimum_order_value: null,
    country: null,
    user_id: member.id,
    expires: new Date(d.expires * 1000).toISOString(),
    currency: "EUR",
    status: "active" as const,
    validity: "once_per_user" as const,
    expired: false,
    paymentmethods: null,
  };
}

/** Why a typed code does not apply; each has a translated message (offers.json codeErrors.*). */
export type CodeError = "not_found" | "used" | "expired" | "minimum" | "country" | "method";

export type AppliedCode = {
  id: number;
  code: string;
  percentage: string;
  originalCents: number;
  discountCents: number;
  finalCents: number;
};

/** A code's minimum order, in the code's own currency (minor units). */
export type CodeMinimum = { cents: number; currency: string };
export type CodeCheck = { ok: true; code: AppliedCode } | { ok: false; error: CodeError; minimum?: CodeMinimum };

/** Codes are typed by people: case and surrounding space do not matter; anything else odd is simply not found. */
export function normalizeCode(input: string): string | null {
  const code = input.normalize("NFKC").trim().toUpperCase();
  return /^[A-Z0-9][A-Z0-9-]{1,39}$/.test(code) ? code : null;
}

type CodeLookup = Pick<
  CodeRow,
  | "id"
  | "code"
  | "valuePercentage"
  | "minimumOrderValue"
  | "currency"
  | "country"
  | "userId"
  | "expires"
  | "status"
  | "oncePerUser"
  | "paymentmethods"
  | "maxUses"
  | "brandIds"
> & {
  redeemed: number;
  claimed: number;
  /** Payments carrying the code that hold or used a use (USE_STATUSES), against maxUses. */
  uses: number;
  /** JSON { package id: price } of the packages in the code's currency (package_prices): a minimum is judged in that currency. */
  codePrices: string | null;
};

/**
 * The welcome offer's former second code: a 4-hour "time bonus" that the welcome code continued after
 * its countdown. One offer has one code now (decision 202): this one is refused as expired, and a member
 * who used or holds it has used or holds the welcome offer.
 */
export const RETIRED_TIME_BONUS_CODE = "TIMEBONUS25";

/**
 * The built-in codes are one welcome offer per member (25% off the first purchase): using or holding
 * either counts as using or holding both. Other codes stand alone.
 */
export const BUILT_IN_CODES = [RETIRED_TIME_BONUS_CODE, WELCOME_CODE] as const;
const BUILT_IN_SQL = `(${BUILT_IN_CODES.map((c) => `'${c}'`).join(", ")})`;

/** The ids of the codes that count as the code `idExpr` (named `codeExpr`) for once per member: itself, or both built-in codes. */
const sameOfferSql = (idExpr: string, codeExpr: string) =>
  `SELECT g.id FROM discount_codes g WHERE g.id = ${idExpr} OR (${codeExpr} IN ${BUILT_IN_SQL} AND g.code IN ${BUILT_IN_SQL})`;

/**
 * The payment statuses that hold or used one of a code's total uses (maxUses): live ones hold it (like a
 * once-per-member claim), completed ones used it; failed, canceled and expired payments give it back.
 */
export const USE_STATUSES = ["open", "checking", "pending", "paid", "refunded", "charged_back"] as const;
const USE_STATUSES_SQL = `(${USE_STATUSES.map((s) => `'${s}'`).join(", ")})`;

// Raw SQL: one round trip for the code and whether this member already used or holds it (or, for a built-in code, the other one).
const LOOKUP_SQL = `
SELECT c.id, c.code, c.value_percentage AS valuePercentage, c.minimum_order_value AS minimumOrderValue, c.country,
       c.user_id AS userId, c.expires, c.status, c.once_per_user AS oncePerUser, c.paymentmethods, c.currency,
       c.max_uses AS maxUses, c.brand_ids AS brandIds,
       CASE WHEN c.max_uses IS NULL THEN 0
         ELSE (SELECT COUNT(*) FROM payments p WHERE p.discount_code_id = c.id AND p.status IN ${USE_STATUSES_SQL}) END AS uses,
       CASE WHEN c.minimum_order_value IS NULL THEN NULL
         ELSE (SELECT json_group_object(pp.package_id, pp.price_cents) FROM package_prices pp WHERE pp.currency = c.currency) END AS codePrices,
       EXISTS (SELECT 1 FROM discount_redemptions r WHERE r.code_id IN (${sameOfferSql("c.id", "c.code")}) AND r.user_id = ?2) AS redeemed,
       EXISTS (SELECT 1 FROM payments p WHERE p.discount_code_id IN (${sameOfferSql("c.id", "c.code")}) AND p.user_id = ?2 AND p.status IN ('open', 'pending')) AS claimed
FROM discount_codes c WHERE c.code = ?1`;

/** The statement that reads a code and whether this member used or holds it; null for a malformed code. */
export function codeLookupStatement(d1: D1Database, input: string, userId: string): D1PreparedStatement | null {
  const code = normalizeCode(input);
  // oxlint-disable-next-line no-restricted-properties -- goes into payments' shopData and directdebit's raw batches
  return code ? d1.prepare(LOOKUP_SQL).bind(code, userId) : null;
}

/** One order: the package (its id, its price in `currency`, the brand's), the payment country and method. */
export type CodeOrder = {
  member: DiscountMember;
  brand: OrderBrand;
  packageId: string;
  priceCents: number;
  currency: string;
  country: string;
  method?: string | null;
  now?: number;
};

/**
 * The order's price in the code's currency: the package price itself when they agree, else the same
 * package's price in the code's currency from the brand price table (package_prices), never minor
 * units of one currency against another. Null when the package has no price in that currency.
 */
function priceInCodeCurrency(row: CodeLookup, o: CodeOrder): number | null {
  if (row.currency === o.currency) return o.priceCents;
  try {
    const prices = JSON.parse(row.codePrices ?? "{}") as Record<string, unknown>;
    const cents = prices[o.packageId];
    return typeof cents === "number" && Number.isInteger(cents) ? cents : null;
  } catch {
    return null;
  }
}

/**
 * Whether a looked-up code applies to one order: the member, the package price, the payment country
 * and (once chosen) the payment method. Checks in the order a member can act on: exists, used,
 * expired, country, minimum order value, payment method.
 */
export function evaluateCode(row: CodeLookup | null, o: CodeOrder): CodeCheck {
  const now = o.now ?? nowS();
  if (!row || row.status !== "active" || (row.userId !== null && row.userId !== o.member.id))
    return { ok: false, error: "not_found" };
  if (percentageBasisPoints(row.valuePercentage) === null) return { ok: false, error: "not_found" };
  // A code for other brands is unknown here, as a switched-off one is: it says nothing about those brands.
  const brands = brandIdsOf(row.brandIds);
  if (brands && !brands.includes(o.brand.id)) return { ok: false, error: "not_found" };
  if (row.oncePerUser && (row.redeemed || row.claimed)) return { ok: false, error: "used" };
  if (row.maxUses !== null && row.uses >= row.maxUses) return { ok: false, error: "used" };
  const builtInOver =
    row.code === RETIRED_TIME_BONUS_CODE ||
    (row.code === WELCOME_CODE && !welcomeDiscount(o.member, o.brand.welcomeDiscountS, now));
  if (builtInOver || (row.expires !== null && row.expires <= now)) return { ok: false, error: "expired" };
  const countries = countriesOf(row.country);
  if (countries && !countries.includes(o.country.toUpperCase())) return { ok: false, error: "country" };
  if (row.minimumOrderValue !== null) {
    // A minimum applies in the code's currency; a package with no price there cannot be shown to reach it.
    const price = priceInCodeCurrency(row, o);
    if (price === null || price < row.minimumOrderValue)
      return { ok: false, error: "minimum", minimum: { cents: row.minimumOrderValue, currency: row.currency } };
  }
  const methods = parseMethods(row.paymentmethods);
  if (o.method && methods && !methods.includes(o.method)) return { ok: false, error: "method" };
  return {
    ok: true,
    code: {
      id: row.id,
      code: row.code,
      percentage: row.valuePercentage,
      ...discountedPrice(o.priceCents, row.valuePercentage),
    },
  };
}

/** Checks a typed code for one order (one round trip); see evaluateCode. */
export async function checkCode(d1: D1Database, o: CodeOrder & { code: string }): Promise<CodeCheck> {
  const lookup = codeLookupStatement(d1, o.code, o.member.id);
  if (!lookup) return { ok: false, error: "not_found" };
  return evaluateCode(await lookup.first<CodeLookup>(), o);
}

/** The code the member's prices use: the one they typed, else their active discount (the welcome offer). */
export function codeForPrices(
  member: DiscountMember,
  brand: DiscountBrand,
  typed?: string | null,
  now = nowS(),
): { code: string; typed: boolean } | null {
  if (typed && typed.trim()) return { code: typed, typed: true };
  const active = activeDiscount(member, brand.welcomeDiscountS, now);
  return active ? { code: active.code, typed: false } : null;
}

export type { CodeLookup };

/** A code's brands column ("1,3", decision 227) as brand ids; null = every brand. */
export function brandIdsOf(v: string | null): number[] | null {
  const list = (v ?? "")
    .split(",")
    .map((b) => b.trim())
    .filter((b) => /^\d{1,9}$/.test(b))
    .map(Number);
  return list.length ? list : null;
}

/** A code's countries column ("DE" or "DE,AT", decision 178) as a list; null = any country. */
export function countriesOf(v: string | null): string[] | null {
  const list = (v ?? "")
    .split(",")
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  return list.length ? list : null;
}

// The raw query returns the JSON column as text.
function parseMethods(v: unknown): string[] | null {
  if (Array.isArray(v)) return v.length ? v.map(String) : null;
  if (typeof v !== "string" || !v) return null;
  try {
    const list = JSON.parse(v) as unknown;
    return Array.isArray(list) && list.length ? list.map(String) : null;
  } catch {
    return null;
  }
}

/**
 * The condition a payment INSERT … SELECT … WHERE adds when it carries a code: the code is not
 * once-per-member, or this member has neither redeemed it nor another open/pending payment carrying it
 * (for a built-in code: either built-in code); and a code with a total (max_uses) has a use left, counted
 * in the same statement (D1 runs one write at a time, so racing checkouts cannot pass it together).
 * `codeParam` and `userParam` are the statement's own
 * parameter placeholders (e.g. "?7", "?2").
 */
export function claimGuardSql(codeParam: string, userParam: string): string {
  const same = sameOfferSql(codeParam, `(SELECT code FROM discount_codes WHERE id = ${codeParam})`);
  return `(${codeParam} IS NULL
    OR ((SELECT once_per_user FROM discount_codes WHERE id = ${codeParam}) = 0
    OR (NOT EXISTS (SELECT 1 FROM discount_redemptions WHERE code_id IN (${same}) AND user_id = ${userParam})
        AND NOT EXISTS (SELECT 1 FROM payments WHERE discount_code_id IN (${same}) AND user_id = ${userParam} AND status IN ('open', 'pending'))))
    AND COALESCE((SELECT max_uses FROM discount_codes WHERE id = ${codeParam}), 1e18)
        > (SELECT COUNT(*) FROM payments WHERE discount_code_id = ${codeParam} AND status IN ${USE_STATUSES_SQL}))`;
}

/**
 * For a completed payment's batch, after its guarded status change: records the redemption of the
 * payment's once-per-member code. It reads the payment itself (status paid, its code), so it writes
 * nothing for a payment without a code or not paid; the primary key keeps a single row per member and
 * code, and a built-in code is not redeemed when the member already redeemed the other one (the rule
 * holds here too, not only when the checkout opened). Such a payment is still credited in full (the
 * member paid); `refusedDiscountOf` finds it for the log.
 */
export function redemptionStatement(d1: D1Database, paymentId: string, now = nowS()) {
  return (
    d1
      // oxlint-disable-next-line no-restricted-properties -- guards: inserts only for a paid payment with an unredeemed once-per-member code; runs in payments' completion chain after the guarded status flip
      .prepare(
        `INSERT INTO discount_redemptions (code_id, user_id, payment_id, created_at)
       SELECT p.discount_code_id, p.user_id, p.id, ?2 FROM payments p JOIN discount_codes c ON c.id = p.discount_code_id
       WHERE p.id = ?1 AND p.status = 'paid' AND c.once_per_user = 1
         AND NOT EXISTS (SELECT 1 FROM discount_redemptions r WHERE r.user_id = p.user_id AND r.code_id IN (${sameOfferSql("c.id", "c.code")}) AND r.code_id <> c.id)
       ON CONFLICT (code_id, user_id) DO NOTHING`,
      )
      .bind(paymentId, now)
  );
}

/**
 * After a payment completed: its once-per-member code if it was not redeemed by that payment (the
 * member had already used it or, for a built-in code, the other one), else null.
 */
export async function refusedDiscountOf(d1: D1Database, paymentId: string): Promise<string | null> {
  const { payments, discountCodes, discountRedemptions } = schema;
  const db = getDb(d1);
  const row = await db
    .select({ code: discountCodes.code })
    .from(payments)
    .innerJoin(discountCodes, eq(discountCodes.id, payments.discountCodeId))
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.status, "paid"),
        eq(discountCodes.oncePerUser, true),
        notExists(
          db
            .select({ one: sql`1` })
            .from(discountRedemptions)
            .where(eq(discountRedemptions.paymentId, payments.id)),
        ),
      ),
    )
    .get();
  return row?.code ?? null;
}

/**
 * A package as the shop shows it with a code applied: `price` the discounted price, `was` the original
 * (struck through on the page); without a code that applies, the package as it is.
 */
export function discountedPackage(
  lng: Language,
  row: PackageRow,
  lookup: CodeLookup | null,
  order: Omit<CodeOrder, "packageId" | "priceCents" | "currency">,
) {
  const plain = toPackage(lng, row);
  const check = lookup
    ? evaluateCode(lookup, { ...order, packageId: row.id, priceCents: row.price_cents, currency: row.currency })
    : null;
  if (!check?.ok) return { ...plain, was: null as string | null };
  const c = check.code;
  return {
    ...toPackage(lng, { ...row, price_cents: c.finalCents }),
    was: plain.price,
  };
}

// ─── The console's codes (decision 178): made, listed and switched off by operators, audited ───

export type NewCode = {
  code: string;
  percentage: string;
  currency: string;
  /** Minimum order in the code's currency, minor units; null = none. */
  minimumCents: number | null;
  /** Valid until (unix seconds); null = no end. */
  expires: number | null;
  countries: string[] | null;
  methods: string[] | null;
  /** The brands it is valid on (decision 227); null = every brand. */
  brandIds?: number[] | null;
  /** "once": once per member (the default, decision 111); "total": at most maxUses payments in all. */
  limit: { kind: "once" } | { kind: "total"; maxUses: number };
};

/**
 * Stores a code made in the console with its audit row in the same batch. The code is unique: a
 * second code of the same name (or the same form posted twice) stores nothing and answers "taken".
 */
export async function createCode(d1: D1Database, actor: Actor, c: NewCode, now = nowS()) {
  const db = getDb(d1);
  const { discountCodes: D } = schema;
  const values = {
    code: c.code,
    valuePercentage: c.percentage,
    minimumOrderValue: c.minimumCents,
    currency: c.currency,
    country: c.countries?.join(",") ?? null,
    brandIds: c.brandIds?.length ? [...c.brandIds].sort((a, b) => a - b).join(",") : null,
    expires: c.expires,
    paymentmethods: c.methods,
    oncePerUser: c.limit.kind === "once",
    maxUses: c.limit.kind === "total" ? c.limit.maxUses : null,
    status: "active" as const,
    createdAt: now,
  };
  // Guarded chain: the audit row is written only when the code row was (changes() > 0).
  const [inserted] = await db.batch([
    db.insert(D).values(values).onConflictDoNothing({ target: D.code }),
    auditAfterChange(db, actor, { action: "code.create", targetType: "code", targetId: c.code, after: values }, now),
  ]);
  return (inserted?.meta.changes ?? 0) === 1 ? ("created" as const) : ("taken" as const);
}

/**
 * Switches a code off (or on again), guarded on its current status, audited in the same batch: a
 * repeated post changes and logs nothing. Checkouts opened with it before keep their price (the
 * member was shown it); new ones find "Code not found".
 */
export async function setCodeStatus(
  d1: D1Database,
  actor: Actor,
  code: string,
  status: "active" | "disabled",
  reason: string,
): Promise<boolean> {
  const db = getDb(d1);
  const { discountCodes: D } = schema;
  const from = status === "active" ? "disabled" : "active";
  const [changed] = await db.batch([
    db
      .update(D)
      .set({ status })
      .where(and(eq(D.code, code), eq(D.status, from))),
    auditAfterChange(db, actor, {
      action: status === "disabled" ? "code.disable" : "code.enable",
      targetType: "code",
      targetId: code,
      reason,
      before: { status: from },
      after: { status },
    }),
  ]);
  return (changed?.meta.changes ?? 0) === 1;
}

/**
 * The brands a code is valid on (decision 227): chosen ones, or every brand (null). Guarded on the
 * value read, audited in the same batch; checkouts opened before keep their price.
 */
export async function setCodeBrands(
  d1: D1Database,
  actor: Actor,
  code: string,
  brandIds: number[] | null,
): Promise<"ok" | "same" | "stale"> {
  const db = getDb(d1);
  const { discountCodes: D } = schema;
  const row = await db.select({ brandIds: D.brandIds }).from(D).where(eq(D.code, code)).get();
  if (!row) return "stale";
  const to = brandIds?.length ? [...new Set(brandIds)].sort((a, b) => a - b).join(",") : null;
  if ((row.brandIds ?? null) === to) return "same";
  const [changed] = await db.batch([
    db
      .update(D)
      .set({ brandIds: to })
      .where(and(eq(D.code, code), sql`${D.brandIds} IS ${row.brandIds}`)),
    auditAfterChange(db, actor, {
      action: "code.brands",
      targetType: "code",
      targetId: code,
      before: { brandIds: brandIdsOf(row.brandIds) },
      after: { brandIds: brandIdsOf(to) },
    }),
  ]);
  return (changed?.meta.changes ?? 0) === 1 ? "ok" : "stale";
}

/** Completed payments: what a code brought (refunds are taken off; a chargeback's money is gone). */
const EARNED = ["paid", "refunded"] as const;

/**
 * Every code with its uses and the revenue it brought per currency: completed payments carrying it
 * (their redemption), what they paid less what was refunded, and the discount given. The built-in
 * codes are listed too (their uses are real). Newest first.
 */
export async function listCodes(d1: D1Database) {
  const db = getDb(d1);
  const { discountCodes: D, payments: P, refunds: R } = schema;
  const refunded = db
    .select({ paymentId: R.paymentId, cents: sql<number>`SUM(${R.amountCents})`.as("cents") })
    .from(R)
    .where(notInArray(R.status, ["failed", "canceled"]))
    .groupBy(R.paymentId)
    .as("rf");
  // Two plain queries, not a batch: a batch answers rows keyed by column name, which the aggregates' expressions make ambiguous.
  const [codes, uses] = await Promise.all([
    db.select().from(D).orderBy(desc(D.id)),
    db
      .select({
        codeId: P.discountCodeId,
        currency: P.currency,
        payments: sql<number>`COUNT(*)`,
        members: sql<number>`COUNT(DISTINCT ${P.userId})`,
        grossCents: sql<number>`SUM(${P.amountCents})`,
        refundedCents: sql<number>`COALESCE(SUM(${refunded.cents}), 0)`,
        discountCents: sql<number>`SUM(COALESCE(${P.originalAmountCents}, ${P.amountCents}) - ${P.amountCents})`,
      })
      .from(P)
      .leftJoin(refunded, eq(refunded.paymentId, P.id))
      .where(and(isNotNull(P.discountCodeId), inArray(P.status, [...EARNED])))
      .groupBy(P.discountCodeId, P.currency),
  ]);
  return codes.map((c) => ({
    ...c,
    countries: countriesOf(c.country),
    brands: brandIdsOf(c.brandIds),
    revenue: uses.filter((u) => u.codeId === c.id).map((u) => ({ ...u, netCents: u.grossCents - u.refundedCents })),
  }));
}

export const CODE_USES_PAGE = 50;

/** A code's completed payments (its redemptions), newest first. */
export async function codeUses(d1: D1Database, code: string) {
  const { discountCodes: D, payments: P } = schema;
  return getDb(d1)
    .select({
      paymentId: P.id,
      userId: P.userId,
      brandId: P.brandId,
      amountCents: P.amountCents,
      originalCents: P.originalAmountCents,
      currency: P.currency,
      status: P.status,
      paidAt: P.paidAt,
    })
    .from(P)
    .innerJoin(D, eq(D.id, P.discountCodeId))
    .where(and(eq(D.code, code), inArray(P.status, [...EARNED, "charged_back"])))
    .orderBy(desc(P.paidAt))
    .limit(CODE_USES_PAGE);
}
